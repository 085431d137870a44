DAY_FORMAT_SHORT = "j M Y"
DAY_FORMAT_LONG = "j F Y"
WEEKDAY_DAY_FORMAT = "l j F Y"
DAY_TIME_FORMAT = "j M Y H:i"
DAY_TIME_COMMA_FORMAT = "j M Y, H:i"
MONTH_DAY_TIME_FORMAT = "j M H:i"
# A final place: empty in English, which spells ordinals ("3rd", "5th-8th" with an en dash).
PLACE_FORMAT = ""
PLACE_BAND_FORMAT = ""
