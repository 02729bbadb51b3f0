package memory

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestCanonicalNumbers(t *testing.T) {
	same := [][]string{
		{"1", "1.0", "1e0", "10e-1", "0.1e1", "1.000E+0"},
		{"0", "-0", "0.0", "0e9"},
		{"-120", "-1.2e2", "-120.00"},
		{"12345678901234567890", "1234567890123456789e1"},
	}
	for _, group := range same {
		for _, n := range group {
			assert.Equal(t, canonical(group[0]), canonical(n), "%s = %s", group[0], n)
		}
	}
	assert.NotEqual(t, canonical("0.1"), canonical("0.1000001"))
	assert.NotEqual(t, canonical("1"), canonical("-1"))
	assert.NotEqual(t, canonical("12345678901234567890"), canonical("12345678901234567891"), "beyond float64's digits")
	start := time.Now()
	assert.NotEqual(t, canonical("1e999999999"), canonical("1e999999998"))
	assert.Less(t, time.Since(start), 10*time.Millisecond, "a huge exponent costs nothing")
}

// Apply keeps only live items under the prefix, also when a store hands it
// more than it should.
func TestApplyDropsWhatAStoreShouldNotHaveRead(t *testing.T) {
	past := time.Now().Add(-time.Second)
	items := []Item{
		{Namespace: []string{"a"}, Key: "live", Value: []byte(`{}`)},
		{Namespace: []string{"a"}, Key: "expired", Value: []byte(`{}`), Expires: past},
		{Namespace: []string{"ab"}, Key: "outside", Value: []byte(`{}`)},
	}
	got, err := Query{Prefix: []string{"a"}}.Apply(items)
	assert.NoError(t, err)
	assert.Len(t, got, 1)
	assert.Equal(t, "live", got[0].Key)
}
