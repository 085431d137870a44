"""What every page's template needs from the kernel: the zone its times are shown in."""

from django.http import HttpRequest
from django.utils import timezone

from web.local_time import venue_zone_shown, zone_caption


def local_times(request: HttpRequest) -> dict:
    """The venue's zone named on a page whose times are in it (``web.local_time``), and
    the zone the page's own times are in (``page_time_zone``, an IANA name): the page
    carries it for its scripts, so a clock written in the browser ("Updated 15:19:07")
    reads the same clock as the times written here, whatever the browser's zone."""
    zone = venue_zone_shown()
    return {
        "venue_zone": zone_caption(zone) if zone else "",
        "page_time_zone": timezone.get_current_timezone_name(),
    }
