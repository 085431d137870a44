"""The printing app's URLs (``printing:<name>``): every one is the event staff's."""

from printing.urls import staff

app_name = "printing"

urlpatterns = [*staff.urlpatterns]
