"""Jinja2 for the pages drawn most often: the game page, its htmx fragments and the table talk.

Why: on the game page's context Django's template engine took 35-48% of the request's CPU, and
Jinja2 renders the same page 2.5-3 times faster (issue 16). Every other page stays a Django
template. A fragment is a named block of the page it updates, as a django-template-partials
partial was: `render_blocks(request, "games/game.html", ["my-board"], context)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template import defaultfilters, engines
from django.utils import formats, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timezone import template_localtime
from jinja2 import Environment, Undefined, pass_context
from markupsafe import Markup, escape

from games.narration import colour_name
from games.presenters.help import card_help_html
from games.presenters.score_table import score_table
from games.templatetags.harmonies import card_face, card_name, cell_words, space_label, token
from games.templatetags.talk import talk_text
from harmonies_site.addresses import static_url, url

CSRF_INPUT = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'
OOB_ATTR = Markup('hx-swap-oob="true"')


@pass_context
def act_form(context, form_class: str = "", confirm: str = "") -> Markup:
    """The opening of every game action form; the caller adds its fields and closes </form>. It
    posts plainly without JavaScript; with htmx it posts in the background and the answer's
    fragments swap themselves in (the notice goes to #notice). The version is the page's,
    refreshed by game.js. A function rather than a Jinja2 macro: a page opens nine of these, and
    the macros' module was built again for every render."""
    action = escape(context["act_url"])
    extra = f" {escape(form_class)}" if form_class else ""
    ask = f' hx-confirm="{escape(confirm)}"' if confirm else ""
    return Markup(
        f'<form method="post" action="{action}" hx-post="{action}" hx-target="#notice"'
        f' class="act-form{extra}"{ask}>{context["csrf_input"]}'
        f'<input type="hidden" name="version" value="{escape(context["game"].version)}">'
    )


# (language, English) -> the words shown. A game page asks for some 400 words; Django's gettext
# walks its chain of catalogs for each, which cost a French page a quarter of its time. The
# catalogs do not change while the process runs, and the words are finite, so this stays small.
_REMEMBERED: dict[tuple[str | None, str], str] = {}


def remembered_gettext(message: str) -> str:
    """Django's gettext in the active language, each answer kept for the process."""
    key = (translation.get_language(), message)
    try:
        return _REMEMBERED[key]
    except KeyError:
        words = _REMEMBERED[key] = translation.gettext(message)
        return words


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (settings.TEMPLATES)."""
    # A missing variable is empty, with DEBUG too, as in Django's templates (the backend's
    # DEBUG default would print it as "{{ name }}" to the player).
    options["undefined"] = Undefined
    options.setdefault("extensions", []).append("jinja2.ext.i18n")
    env = Environment(**options)
    # `_("Take %(n)s", n=3)`, `ngettext("%(num)d token", "%(num)d tokens", n)`, `{% trans %}`:
    # Django's catalogs in the active language; the new style escapes what it fills in.
    env.install_gettext_callables(
        remembered_gettext,
        translation.ngettext,
        newstyle=True,
        pgettext=translation.pgettext,
        npgettext=translation.npgettext,
    )
    env.globals.update(
        url=url,
        static=static_url,
        card_face=card_face,
        card_help=card_help_html,
        token=token,
        score_table=score_table,
        act_form=act_form,
    )
    env.filters.update(
        pluralize=defaultfilters.pluralize,
        date=local_date,
        timesince=defaultfilters.timesince_filter,
        timeuntil=defaultfilters.timeuntil_filter,
        card_name=card_name,
        cell_words=cell_words,
        space_label=space_label,
        talk_text=talk_text,
        colour_name=colour_name,
        number=number,
    )
    return env


def number(value: Any) -> str:
    """A number as the reader writes it: "4,000", "4 000", "4.000"."""
    return formats.number_format(value, force_grouping=True)


def local_date(value: Any, arg: str | None = None) -> str:
    """Django's `date` filter on the time as the viewer reads it: Django's templates turn an aware
    datetime into the active time zone before any filter sees it (the viewer's, activated by
    accounts.context_processors), Jinja does not, and talk times came out in UTC."""
    return defaultfilters.date(template_localtime(value), arg)


def page_context(request: HttpRequest, context: dict[str, Any]) -> dict[str, Any]:
    """What Django's Jinja2 backend adds to a render: the request, CSRF and context processors.
    The CSRF input is built once per render, however many forms a page has."""
    backend = engines["jinja2"]
    token = get_token(request)
    full = {
        **context,
        "request": request,
        "csrf_token": token,
        "csrf_input": format_html(CSRF_INPUT, token),
    }
    for processor in backend.template_context_processors:
        full.update(processor(request))
    # An htmx answer's parts swap themselves in out of band (hx-swap-oob on each block's root).
    full["oob_attr"] = OOB_ATTR if context.get("oob") else ""
    return full


def render_page(
    request: HttpRequest, name: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """The whole page `name` (a template of the jinja2 engine)."""
    template = engines["jinja2"].env.get_template(name)
    return HttpResponse(template.render(page_context(request, context)), status=status)


def render_blocks(
    request: HttpRequest,
    name: str,
    blocks: Iterable[str],
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """Only the named blocks of `name`, one after the other ("my-board" is block my_board)."""
    template = engines["jinja2"].env.get_template(name)
    ctx = template.new_context(page_context(request, context))
    html = "".join(
        chunk for block in blocks for chunk in template.blocks[block.replace("-", "_")](ctx)
    )
    return HttpResponse(SafeString(html), status=status)
