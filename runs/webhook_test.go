package runs

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookHosts: by default only loopback; listed names, addresses and
// prefixes besides; and after DNS, a listed name that resolves to a
// link-local (metadata) address is refused, as is any name resolving to
// loopback that was not allowed by name.
func TestWebhookHosts(t *testing.T) {
	var none WebhookHosts
	assert.NoError(t, none.CheckURL("http://127.0.0.1:8080/hook"))
	assert.NoError(t, none.CheckURL("http://localhost/hook"))
	assert.NoError(t, none.CheckURL("http://[::1]/hook"))
	assert.Error(t, none.CheckURL("http://hooks.example.com/hook"))
	assert.Error(t, none.CheckURL("http://169.254.169.254/"))

	h, err := NewWebhookHosts([]string{"hooks.example.com", "10.1.0.0/16", "192.0.2.7"})
	require.NoError(t, err)
	assert.NoError(t, h.CheckURL("https://hooks.example.com/x"))
	assert.NoError(t, h.CheckURL("http://10.1.2.3/x"))
	assert.NoError(t, h.CheckURL("http://192.0.2.7/x"))
	assert.Error(t, h.CheckURL("http://10.2.0.1/x"))

	ip := netip.MustParseAddr
	assert.True(t, h.dialAllowed("hooks.example.com", ip("203.0.113.9")))
	assert.False(t, h.dialAllowed("hooks.example.com", ip("169.254.169.254")), "a listed name rebound to the metadata address")
	assert.False(t, h.dialAllowed("hooks.example.com", ip("0.0.0.0")))
	assert.False(t, h.dialAllowed("other.example.com", ip("203.0.113.9")))
	assert.False(t, none.dialAllowed("evil.example.com", ip("127.0.0.1")), "a name allowed by nothing, resolving to loopback")
	assert.True(t, none.dialAllowed("localhost", ip("127.0.0.1")))
	assert.False(t, none.dialAllowed("localhost", ip("10.0.0.1")), "localhost resolving elsewhere")

	for _, bad := range []string{"", "10.0.0.0/33", "host:80", "user@host"} {
		_, err := NewWebhookHosts([]string{bad})
		assert.Error(t, err, bad)
	}
	assert.ErrorContains(t, none.CheckURL("http://localhost/"+string(make([]byte, MaxWebhookBytes))), "over the limit")
}
