"""The account's pages: API keys (make, shown once; list; revoke), password change, deletion
(with confirmation) and the export download (the API's NDJSON, with the page's session)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import logout, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts import identity
from accounts import services as key_services
from accounts.scopes import SCOPE_WORDS
from core.errors import InvalidRequest
from web.forms import PasswordForm


class KeyForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("What it may do"),
        choices=[],
        widget=forms.CheckboxSelectMultiple,
    )
    days = forms.IntegerField(
        label=gettext_lazy("Expires after (days; empty: never)"),
        min_value=1,
        max_value=key_services.MAX_DAYS,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["scopes"].choices = [  # type: ignore[attr-defined]
            (scope, f"{scope}: {SCOPE_WORDS[scope]}") for scope in key_services.SCOPES
        ]


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind @login_required: its user is an account, never anonymous
    (django-stubs' recommended narrowing; the annotation only, nothing changes at run time)."""

    user: User


class DeleteForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput)
    confirm = forms.BooleanField(
        label=gettext_lazy("I understand: my account is closed for good and cannot come back.")
    )


@login_required
def account_keys(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = KeyForm(request.POST or None)
    made = None
    if request.method == "POST" and form.is_valid():
        if key_services.key_count_for(user=request.user) >= key_services.MAX_KEYS:
            form.add_error(
                None,
                _("An account holds at most %(max)s keys: revoke one first.")
                % {"max": key_services.MAX_KEYS},
            )
        else:
            row, key = key_services.key_create(
                user=request.user,
                name=form.cleaned_data["name"].strip(),
                scopes=form.cleaned_data["scopes"],
                days=form.cleaned_data["days"],
            )
            made = {"row": row, "key": key}
            form = KeyForm()
    keys = [
        {
            **key_services.key_payload(row),
            "created_at": row.created,
            "expires_at": row.expires,
            "last_used_at": row.last_used,
        }
        for row in key_services.key_list_for(user=request.user)
    ]
    apps = key_services.oauth_apps_for(user=request.user)
    return render(
        request,
        "web/account_keys.html",
        {"form": form, "keys": keys, "made": made, "apps": apps},
    )


@login_required
@require_POST
def account_key_revoke(request: AuthenticatedHttpRequest, key_id: str) -> HttpResponse:
    key_services.key_revoke(user=request.user, key_id=key_id[:16])
    return redirect("account-keys")


@login_required
@require_POST
def account_app_revoke(request: AuthenticatedHttpRequest, application_id: int) -> HttpResponse:
    key_services.oauth_app_revoke(user=request.user, application_id=application_id)
    return redirect("account-keys")


@login_required
def account_password(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        identity.account_password_change(
            user=request.user, new_password=form.cleaned_data["new_password1"]
        )
        # This session stays; the account's other sessions end (their hash no longer matches).
        update_session_auth_hash(request, request.user)
        return render(request, "web/account_password.html", {"done": True})
    return render(request, "web/account_password.html", {"form": form})


@login_required
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = DeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            identity.account_password_check(
                request=request, user=request.user, password=form.cleaned_data["password"]
            )
        except InvalidRequest as wrong:
            form.add_error("password", wrong.message)
        else:
            identity.account_delete(user=request.user)
            logout(request)
            return render(request, "web/account_delete.html", {"done": True})
    return render(request, "web/account_delete.html", {"form": form})
