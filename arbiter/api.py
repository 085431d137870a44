"""DRF glue: error bodies always carry ``errors`` so tools can read them one way."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc, context) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if isinstance(data, dict) and "errors" in data:
        return response
    if isinstance(data, dict) and set(data) == {"detail"}:
        response.data = {"errors": [{"field": None, "message": str(data["detail"])}]}
    elif isinstance(data, dict):
        response.data = {
            "errors": [
                {"field": field, "message": str(message)}
                for field, messages in data.items()
                for message in (messages if isinstance(messages, list) else [messages])
            ]
        }
    elif isinstance(data, list):
        response.data = {"errors": [{"field": None, "message": str(m)} for m in data]}
    return response
