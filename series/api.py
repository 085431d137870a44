"""The series API: the public standings, as the series page shows them."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pairing.series import SeriesRow
from series.models import Series
from series.standings import SeriesTable, series_table
from web.openapi import array, ref, responses


def series_json(series: Series) -> dict:
    return {
        "id": series.pk,
        "name": series.name,
        "description": series.description,
        "method": series.method,
        "placing_points": list(series.placing_points or []),
        "participation": series.participation,
        "best_of": series.best_of,
        "tiebreakers": list(series.rule.tiebreakers),
    }


def standing_json(row: SeriesRow) -> dict:
    return {
        "rank": row.rank,
        "player": row.player,
        "name": row.name,
        "total": row.total,
        "best_finish": row.best_finish,
        "match_wins": row.match_wins,
        "events": [
            {
                "event": s.event,
                "place": s.place,
                "points": s.points,
                "counted": s.counted,
                "disqualified": s.disqualified,
            }
            for s in row.scores
        ],
    }


def table_json(table: SeriesTable) -> dict:
    counted = {event.pk for event in table.counted}
    return {
        **series_json(table.series),
        "events": [
            {
                "id": e.pk,
                "name": e.name,
                "date": e.date.isoformat(),
                "status": e.status,
                "counted": e.pk in counted,
            }
            for e in [*table.counted, *table.in_progress]
        ],
        "standings": [standing_json(row) for row in table.rows],
    }


class SeriesList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="series_list",
        summary="Every series",
        tags=["series"],
        responses=responses({200: (array(ref("Series")), "Each series' settings.")}),
    )
    def get(self, request: Request) -> Response:
        return Response([series_json(s) for s in Series.objects.order_by("-created_at")])


class SeriesDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="series_detail",
        summary="A series and its standings",
        tags=["series"],
        responses=responses({200: (ref("Series"), "The series, its events, its standings.")}, 404),
    )
    def get(self, request: Request, series_id: int) -> Response:
        return Response(table_json(series_table(get_object_or_404(Series, pk=series_id))))
