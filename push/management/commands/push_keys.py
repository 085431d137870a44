"""Print a fresh VAPID key pair for Web Push, as the three lines of the settings file."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_keys() -> tuple[str, str]:
    """(public, private): the uncompressed P-256 point browsers subscribe with, and the
    raw 32-byte private number pywebpush signs with, both base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64url(public), b64url(private)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for WEBPUSH_VAPID_PUBLIC_KEY / _PRIVATE_KEY."

    def add_arguments(self, parser):
        parser.add_argument(
            "--subject", default="mailto:CHANGE-ME@example.org", help="mailto: or https: URL"
        )

    def handle(self, *args, subject: str, **options):
        public, private = new_keys()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"WEBPUSH_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"WEBPUSH_VAPID_SUBJECT={subject}")
