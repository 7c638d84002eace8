"""The account forms of the web pages: the same username rule as the API (accounts.identity)."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from accounts.identity import username_validate


class SignupForm(UserCreationForm[User]):
    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        username_validate(username)
        return username


# Django's own words for these two refusals are formal in Hungarian ("Írjon be...") where the
# site says "te", and leave out an accusative: the site's words (those of the API) instead.
class LoginForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Wrong username or password."),
    }


class PasswordForm(PasswordChangeForm):
    error_messages = {
        **PasswordChangeForm.error_messages,
        "password_incorrect": _("Wrong password."),
    }
