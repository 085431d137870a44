"""What every page's template needs from the kernel: the zone its times are shown in."""

from django.http import HttpRequest

from web.local_time import venue_zone_shown, zone_caption


def local_times(request: HttpRequest) -> dict:
    """The venue's zone named on a page whose times are in it (``web.local_time``)."""
    zone = venue_zone_shown()
    return {"venue_zone": zone_caption(zone) if zone else ""}
