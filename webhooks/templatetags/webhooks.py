from django import template

from webhooks.profile import section

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_channels(context) -> dict:
    """`{% chat_channels as channel_section %}`: the viewer's hooks and the form to add one."""
    return section(context["request"].user)
