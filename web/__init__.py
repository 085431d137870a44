"""The web kernel every app uses.

One ``ServiceError`` (a refusal, with the fields at fault), one request-input reader,
the API's error bodies and ``run_service``, the event lookup with its permissions, and
the cross-app HTTP plumbing (body parsers, middleware, cache, health checks, the OpenAPI
helpers). ``errors`` and ``inputs`` use nothing of Django.
"""
