"""Django's PostgreSQL backend lending connections from ``PromptPool``."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base as postgresql

from arbiter.postgresql.pool import PromptPool


class DatabaseWrapper(postgresql.DatabaseWrapper):
    """Django's wrapper; only the pool it makes differs.

    Django keeps one pool per alias in a class-wide dict and makes it on first use; the
    pool is put there first, so Django's opening, lending and closing (``close_pool``,
    e.g. when the time zone setting changes) all act on it.
    """

    @property
    def pool(self) -> PromptPool | None:
        options = self.settings_dict["OPTIONS"].get("pool")
        # The NO_DB alias (a connection to "postgres" to create databases) is never pooled.
        if options and self.alias != NO_DB_ALIAS and self.alias not in self._connection_pools:
            self._connection_pools.setdefault(self.alias, self._make_pool(options))
        return super().pool

    def _make_pool(self, options: dict | bool) -> PromptPool:
        if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
            raise ImproperlyConfigured("A connection pool and CONN_MAX_AGE cannot go together.")
        health_checks = self.settings_dict["CONN_HEALTH_CHECKS"]
        return PromptPool(
            kwargs={**self.get_connection_params(), "autocommit": True},  # Django sets it later
            open=False,  # opened by the first connection, not at start-up
            configure=self._configure_connection,
            check=PromptPool.check_connection if health_checks else None,
            **({} if options is True else options),
        )
