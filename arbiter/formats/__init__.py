"""Date formats per language (``FORMAT_MODULE_PATH``): the templates name a format
(``|date:"DAY_FORMAT_SHORT"``) and each language writes it its own way: "4 Mar 2026",
"2026年3月4日", "4. Mär 2026". Every language of ``LANGUAGES`` defines every name."""
