from django import forms

from tournaments import services
from tournaments.models import DecklistPolicy, Event, EventRole
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

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        policy = self.fields["decklist_policy"]
        policy.label = "Decklists before round 1"
        # A form (or a script) that does not send the field keeps the event's policy.
        policy.required = False
        if self.instance._state.adding and "decklist_policy" not in (kwargs.get("initial") or {}):
            self.initial["decklist_policy"] = DecklistPolicy.WARN  # a new event warns

    def clean_decklist_policy(self) -> str:
        return self.cleaned_data.get("decklist_policy") or self.instance.decklist_policy

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
