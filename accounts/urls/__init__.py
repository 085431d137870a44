"""The accounts URLs (no namespace: Django's auth views name theirs), one module per audience."""

from accounts.urls import public, signed_in

urlpatterns = [*public.urlpatterns, *signed_in.urlpatterns]
