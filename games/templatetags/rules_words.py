"""Template helpers for the rules page's translated paragraphs (templates/games/_rules_*.html).

`{% capture name %}...{% endcapture %}` keeps what its body renders (a list drawn by a loop) in a
variable, so that a whole sentence can be one message with the list as a placeholder."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()


class CaptureNode(template.Node):
    def __init__(self, nodelist: template.NodeList, name: str) -> None:
        self.nodelist = nodelist
        self.name = name

    def render(self, context: template.Context) -> str:
        context[self.name] = mark_safe(self.nodelist.render(context).strip())
        return ""


@register.tag
def capture(parser: template.base.Parser, token: template.base.Token) -> CaptureNode:
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("usage: {% capture name %}...{% endcapture %}")
    nodelist = parser.parse(("endcapture",))
    parser.delete_first_token()
    return CaptureNode(nodelist, bits[1])
