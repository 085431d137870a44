"""Account changes the pages make, each in one transaction; views only call these."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts import ratelimit
from accounts.language import saved_language
from accounts.ratelimit import Limit
from web.errors import ServiceError

HOUR = 3600
CONFIRM_SALT = "accounts.confirm-email"
LINK_EXPIRED = _lazy(
    "This link is no longer valid: it was changed, or it is more than three days old."
)

EMAIL_TAKEN = _lazy("An account already uses this e-mail address.")


def email_in_use(email: str, *, besides: User | None = None) -> bool:
    """An address belongs to one account: password resets and event notices go there.

    No address (an account whose address is not confirmed yet) is nobody's.
    """
    if not email.strip():
        return False
    owners = User.objects.filter(email__iexact=email.strip())
    if besides is not None:
        owners = owners.exclude(pk=besides.pk)
    return owners.exists()


def create_account(
    *, username: str, password: str, email: str, first_name: str = "", last_name: str = ""
) -> User:
    """A new account; a name or an address taken meanwhile is refused, naming the field."""
    try:
        with transaction.atomic():
            if email_in_use(email):
                raise ServiceError(str(EMAIL_TAKEN), field="email")
            if User.objects.filter(username__iexact=username).exists():
                raise ServiceError(_("A user with that username already exists."), field="username")
            user = User(username=username, email=email, first_name=first_name, last_name=last_name)
            user.set_password(password)
            user.save()
    except IntegrityError:  # the same name, registered between the check and the insert
        raise ServiceError(
            _("A user with that username already exists."), field="username"
        ) from None
    return user


def reset_limit_per_address() -> Limit:
    """Password-reset requests one client address may make an hour, whatever they name."""
    return Limit("password-reset-address", settings.PASSWORD_RESET_ADDRESS_LIMIT, HOUR)


def reset_limit_per_account() -> Limit:
    """Password-reset e-mails one account may be sent an hour."""
    return Limit("password-reset-account", settings.PASSWORD_RESET_ACCOUNT_LIMIT, HOUR)


def confirm_limit_per_address() -> Limit:
    """Sign-up confirmation links one e-mail address may be sent an hour."""
    return Limit("signup-confirm-address", settings.PASSWORD_RESET_ACCOUNT_LIMIT, HOUR)


def sign_up(
    *, username: str, password: str, email: str, first_name: str = "", last_name: str = ""
) -> User:
    """A new account whose address is its own only once the address's owner confirms it.

    The answer is the same whether or not an account already uses ``email``, so sign-up
    tells no one which addresses have accounts: the new account starts without an
    address, and a message goes to ``email`` either way, a link to confirm it, or, when
    the address is taken, a note to its owner with a link to reset their password (as
    Django's reset flow does). A name already taken is still refused: names are public.
    """
    user = create_account(
        username=username, password=password, email="", first_name=first_name, last_name=last_name
    )
    owners = list(User.objects.filter(email__iexact=email.strip(), is_active=True))
    if owners:
        for owner in owners:
            _tell_owner_of_sign_up_attempt(owner)
    elif ratelimit.hit(confirm_limit_per_address(), email.strip().lower()):
        _send_confirmation(user, email)
    return user


def _site_link(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _send_confirmation(user: User, email: str) -> None:
    token = signing.dumps({"user": user.pk, "email": email}, salt=CONFIRM_SALT)
    context = {
        "user": user,
        "email": email,
        "link": _site_link(reverse("confirm_email", args=[token])),
    }
    send_mail(
        _("Confirm your e-mail address for Arbiter"),
        render_to_string("registration/confirm_email_email.txt", context),
        None,
        [email],
    )


def _tell_owner_of_sign_up_attempt(owner: User) -> None:
    """The owner's note, counted with their password-reset e-mails (it carries a reset
    link), so neither sign-ups nor resets can flood their inbox."""
    if not ratelimit.hit(reset_limit_per_account(), f"user:{owner.pk}"):
        return
    uid = urlsafe_base64_encode(force_bytes(owner.pk))
    token = default_token_generator.make_token(owner)
    context = {
        "owner": owner,
        "reset_link": _site_link(reverse("password_reset_confirm", args=[uid, token])),
        "login_link": _site_link(reverse("login")),
    }
    # The owner reads it in the language they chose, not in the one of whoever tried.
    with translation.override(saved_language(owner) or settings.LANGUAGE_CODE):
        send_mail(
            _("Someone tried to sign up to Arbiter with your e-mail address"),
            render_to_string("registration/signup_address_taken_email.txt", context),
            None,
            [owner.email],
        )


def read_confirmation(token: str) -> tuple[User, str]:
    """The account and address a confirmation link names; refused when changed or stale."""
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
        user = User.objects.get(pk=data["user"])
        email = str(data["email"])
    except (signing.BadSignature, User.DoesNotExist, KeyError, TypeError):
        raise ServiceError(str(LINK_EXPIRED), field="token") from None
    return user, email


def confirm_email(token: str) -> User:
    """The address in the link becomes the account's, unless another account has it now."""
    user, email = read_confirmation(token)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if email_in_use(email, besides=user):
            raise ServiceError(
                _(
                    "That address already belongs to an account: log in to it, or reset its"
                    " password from the log-in page."
                ),
                field="token",
            )
        user.email = email
        user.save(update_fields=["email"])
    return user
