from django import forms

from tournaments.models import Event, EventRole


class EventForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = [
            "name",
            "game",
            "date",
            "venue",
            "status",
            "match_format",
            "swiss_rounds",
            "top_cut",
            "round_minutes",
            "registration_cap",
            "registration_deadline",
            "decklist_deadline",
            "decklists_public",
            "print_paper",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "registration_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "decklist_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }

    def clean_top_cut(self) -> int:
        cut = self.cleaned_data["top_cut"]
        if cut and cut & (cut - 1):
            raise forms.ValidationError("The top cut must be 0 or a power of two (2, 4, 8, …).")
        return cut


class GrantRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")
    role = forms.ChoiceField(choices=EventRole.Role.choices)
