from django import forms

from tournaments import services
from tournaments.models import Event, EventRole
from web.errors import ServiceError


class EventForm(forms.ModelForm):
    """The event's details as a page edits them; ``services.update_event`` saves them."""

    class Meta:
        model = Event
        fields = list(services.EDITABLE_EVENT_FIELDS)
        widgets = {
            # A count as the organiser types (static/js/text-count.js): names have limits.
            "name": forms.TextInput(attrs={"data-count": ""}),
            "venue": forms.TextInput(attrs={"data-count": ""}),
            "date": forms.DateInput(attrs={"type": "date"}),
            "registration_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "decklist_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }

    def clean_top_cut(self) -> int:
        cut = self.cleaned_data["top_cut"]
        try:
            services.check_top_cut(cut)
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from None
        return cut


class GrantRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=EventRole.Role.choices)
