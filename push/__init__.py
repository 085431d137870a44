"""Web Push to a closed phone: pairing notices through the browser's push service (VAPID)."""
