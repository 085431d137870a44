"""API token authentication with an error message a tool's user can act on."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from accounts import tokens

TOKEN_PAGE = "/accounts/token/"


class ToolTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, looked up by the key's digest (``accounts.tokens``);
    a revoked or mistyped key says where to get one."""

    def authenticate_credentials(self, key: str):
        token = tokens.token_for_key(key)
        if token is None:
            raise AuthenticationFailed(
                _(
                    "This API token is not valid: it was revoked, regenerated or mistyped. "
                    "Get the current one at %(page)s (or `manage.py api_token`)."
                )
                % {"page": TOKEN_PAGE}
            )
        if not token.user.is_active:
            raise AuthenticationFailed(
                _("This API token's account is deactivated; ask a site admin.")
            )
        return token.user, token
