package guards

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFindSensitiveData(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		kinds []string
	}{
		{"email", "write to ivan.petrov@example.co.uk please", []string{"email"}},
		{"international phone", "call +7 (495) 123-45-67 today", []string{"phone"}},
		{"russian 8 phone", "звоните 8 916 123 45 67", []string{"phone"}},
		{"us phone", "call +1 415 555 2671", []string{"phone"}},
		{"card with spaces", "card 4111 1111 1111 1111 expires", []string{"card"}},
		{"card with dashes", "5500-0000-0000-0004", []string{"card"}},
		{"passport next to the word", "паспорт 45 06 123456 выдан", []string{"ru_passport"}},
		{"passport in english", "passport no. 4506 123456", []string{"ru_passport"}},
		{"inn 10", "ИНН 7707083893", []string{"inn"}},
		{"inn 12", "ИНН 500100732259", []string{"inn"}},
		{"snils", "СНИЛС 112-233-445 95", []string{"snils"}},
		{"several in order", "a@b.io and 4111111111111111", []string{"email", "card"}},
		// Look-alikes that are not sensitive data.
		{"luhn-invalid card", "order 4111 1111 1111 1112", nil},
		{"date", "released on 2024-03-15 at 10:30", nil},
		{"version", "upgrade to 1.12.4.2 or 10.0.19045", nil},
		{"year and counts", "in 2025 we served 1500000 requests", nil},
		{"iso timestamp", "2026-11-22T14:42:38Z", nil},
		{"ten digits without passport word", "ticket 4506123456 closed", nil},
		{"inn with bad check digit", "ИНН 7707083894", nil},
		{"snils with bad checksum", "СНИЛС 112-233-445 96", nil},
		{"not an email", "user at example dot com", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var kinds []string
			for _, m := range FindSensitiveData(tc.text) {
				kinds = append(kinds, m.Kind)
				assert.Contains(t, m.Value, "*", "values are redacted")
			}
			assert.Equal(t, tc.kinds, kinds)
		})
	}
}

func TestRedaction(t *testing.T) {
	m := FindSensitiveData("4111111111111111")
	assert.Equal(t, []SensitiveMatch{{Kind: "card", Value: "41************11", Offset: 0}}, m)
}

func TestChecksums(t *testing.T) {
	for _, tc := range []struct {
		name  string
		check func(string) bool
		value string
		want  bool
	}{
		{"luhn valid", Luhn, "4111111111111111", true},
		{"luhn valid 2", Luhn, "79927398713", true},
		{"luhn invalid", Luhn, "79927398710", false},
		{"luhn too short", Luhn, "0", false},
		{"inn 10 valid", ValidINN, "7707083893", true},
		{"inn 10 invalid", ValidINN, "7707083890", false},
		{"inn 12 valid", ValidINN, "500100732259", true},
		{"inn 12 invalid", ValidINN, "500100732250", false},
		{"inn wrong length", ValidINN, "12345", false},
		{"snils valid", ValidSNILS, "112-233-445 95", true},
		{"snils invalid", ValidSNILS, "112-233-445 94", false},
		{"snils wrong length", ValidSNILS, "112-233-445", false},
	} {
		assert.Equal(t, tc.want, tc.check(tc.value), tc.name)
	}
}

func BenchmarkFindSensitiveData(b *testing.B) {
	text := strings.Repeat("Contact support at help@example.org or +7 495 123-45-67 for version 1.2.3 issues. ", 40)
	b.ReportAllocs()
	for b.Loop() {
		if len(FindSensitiveData(text)) == 0 {
			b.Fatal("expected matches")
		}
	}
}
