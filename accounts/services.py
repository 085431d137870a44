"""Account changes the pages make, each in one transaction; views only call these."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from accounts.ratelimit import Limit
from web.errors import ServiceError

HOUR = 3600

EMAIL_TAKEN = "An account already uses this e-mail address."


def email_in_use(email: str) -> bool:
    """An address belongs to one account: password resets and event notices go there."""
    return User.objects.filter(email__iexact=email.strip()).exists()


def create_account(
    *, username: str, password: str, email: str, first_name: str = "", last_name: str = ""
) -> User:
    """A new account; a name or an address taken meanwhile is refused, naming the field."""
    try:
        with transaction.atomic():
            if email_in_use(email):
                raise ServiceError(EMAIL_TAKEN, field="email")
            if User.objects.filter(username__iexact=username).exists():
                raise ServiceError("A user with that username already exists.", field="username")
            user = User(username=username, email=email, first_name=first_name, last_name=last_name)
            user.set_password(password)
            user.save()
    except IntegrityError:  # the same name, registered between the check and the insert
        raise ServiceError("A user with that username already exists.", field="username") from None
    return user


def reset_limit_per_address() -> Limit:
    """Password-reset requests one client address may make an hour, whatever they name."""
    return Limit("password-reset-address", settings.PASSWORD_RESET_ADDRESS_LIMIT, HOUR)


def reset_limit_per_account() -> Limit:
    """Password-reset e-mails one account may be sent an hour."""
    return Limit("password-reset-account", settings.PASSWORD_RESET_ACCOUNT_LIMIT, HOUR)
