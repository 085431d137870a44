"""PostgreSQL with psycopg's connection pool, answering a database restart promptly.

Django's own backend, except that its pool is ``pool.PromptPool`` (see there for why);
``arbiter/env.py`` names this backend whenever the pool is on.
"""
