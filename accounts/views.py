from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import ratelimit, services, throttle, tokens
from accounts.forms import LimitedPasswordResetForm, SignUpForm
from web.errors import ServiceError


def signup(request: HttpRequest) -> HttpResponse:
    """A new account, signed in at once; its address waits for its owner's confirmation.

    The same answer whether or not an account already uses the address typed in
    (services.sign_up), so the page cannot be used to learn who has an account.
    """
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        try:
            user = services.sign_up(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=email,
                first_name=form.cleaned_data["first_name"],
                last_name=form.cleaned_data["last_name"],
            )
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request,
                _(
                    "Welcome to Arbiter, %(username)s. We have sent a message to %(email)s:"
                    " open the link in it to confirm the address. Password resets and event"
                    " notices go there once it is confirmed."
                )
                % {"username": user.username, "email": email},
            )
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


@require_http_methods(["GET", "POST"])
def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the sign-up message: a page to confirm, whose button does it.

    Opening the link changes nothing (mail scanners open links); anyone holding it may
    confirm, signed in or not, since only the address's owner received it.
    """
    try:
        user, email = services.read_confirmation(token)
    except ServiceError as exc:
        return render(request, "registration/confirm_email.html", {"error": exc.message})
    if request.method == "POST":
        try:
            services.confirm_email(token)
        except ServiceError as exc:
            return render(request, "registration/confirm_email.html", {"error": exc.message})
        messages.success(
            request,
            _("%(email)s is now the address of your account %(username)s.")
            % {"email": email, "username": user.username},
        )
        return redirect("home" if request.user.is_authenticated else "login")
    context = {"account": user, "email": email, "confirmed": user.email == email}
    return render(request, "registration/confirm_email.html", context)


TOKEN_ACTIONS = {"create", "regenerate", "revoke"}


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API key for tools: create, regenerate or revoke it.

    Only its digest is kept (``accounts.tokens``), so a new key is shown in the answer to
    the request that made it (never cached, never stored) and never again: afterwards the
    page says when it was made and how it starts.
    """
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in TOKEN_ACTIONS:
            messages.error(request, _("Choose create, regenerate or revoke."))
        elif action == "revoke":
            if tokens.revoke_token(request.user):
                messages.success(
                    request, _("Your API token is revoked: tools using it are refused.")
                )
            else:
                messages.info(request, _("You had no API token."))
        else:
            try:
                issued = tokens.issue_token(request.user, rotate=action == "regenerate")
            except tokens.TokenExists:
                messages.info(
                    request,
                    _(
                        "You already have an API token. It was shown only when it was made: "
                        "regenerate it for a new key."
                    ),
                )
            else:
                if action == "regenerate":
                    done = _("Your API token is regenerated: the old key no longer works.")
                else:
                    done = _("Your API token is created.")
                messages.success(request, done)
                return _token_page(request, issued.token, new_key=issued.key)
        return redirect("api_token")
    return _token_page(request, tokens.current_token(request.user))


def _token_page(request: HttpRequest, token, *, new_key: str = "") -> HttpResponse:
    context = {
        "token": token,
        "new_key": new_key,
        "api_root": request.build_absolute_uri("/api/v1/"),
    }
    return render(request, "registration/api_token.html", context)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, limited per client address and (in the form) per account.

    Past the address's limit the answer is a 429 with the wait, not the usual "check your
    e-mail": it is counted before the address typed in is looked at, so it says nothing
    about accounts, and someone behind a shared address (a venue's Wi-Fi) learns why no
    e-mail comes instead of waiting for one.
    """

    form_class = LimitedPasswordResetForm

    def form_valid(self, form):
        limit = services.reset_limit_per_address()
        if not ratelimit.hit(limit, throttle.client_ip(self.request) or "unknown"):
            minutes = limit.window // 60
            response = render(
                self.request,
                "registration/password_reset_limited.html",
                {"minutes": minutes, "limit": limit.count},
                status=429,
            )
            response["Retry-After"] = str(limit.window)
            return response
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's "choose a new password" page; a new password also ends the account's
    log-in lock-out.

    Five wrong guesses from anywhere lock an account out (settings, "Log-in throttling"),
    so anyone can lock anyone out; the owner, who can read the account's e-mail, need not
    wait. Only the username's count starts again: an address's lock-out stays.
    """

    def form_valid(self, form):
        response = super().form_valid(form)
        throttle.forget_failures_for(form.user.get_username())
        return response
