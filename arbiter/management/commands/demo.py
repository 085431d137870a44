from django.core.management.base import BaseCommand

from arbiter.demo import build_demo


class Command(BaseCommand):
    help = (
        "Create demo accounts and a demo Iacta event. "
        "Safe to run again: it adds only what is missing."
    )

    def handle(self, *args, **options) -> None:
        report = build_demo()
        if report.created:
            self.stdout.write(
                self.style.SUCCESS(f"Demo data: created {len(report.created)} items.")
            )
        else:
            self.stdout.write("Demo data already present: nothing changed.")
        self.stdout.write("\nDemo log-ins (all share one password):")
        width = max(len(username) for _, username, _ in report.logins)
        for role, username, password in report.logins:
            self.stdout.write(f"  {role:<11} {username:<{width}}  {password}")
