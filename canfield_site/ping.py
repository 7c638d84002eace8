"""The ping: the cheapest DRF request the stack can serve (bench/api.py's floor)."""

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ScopeRequired
from core.api import answers


class PingApi(APIView):
    """The cheapest DRF request the stack can serve: bench/api.py's floor."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        responses=answers(
            {200: inline_serializer("Pong", {"pong": serializers.BooleanField()})}, database=False
        ),
        summary="Answers without touching the database",
        operation_id="ping",
        auth=[],
    )
    def get(self, request: Request) -> Response:
        return Response({"pong": True})
