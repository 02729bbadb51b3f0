package runs

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The headers of a webhook delivery. The signature is "v1=" and the hex
// HMAC-SHA256, under the run owner's webhook secret (WebhookSecret), of the
// timestamp, a dot and the body: a receiver recomputes it and refuses a
// timestamp older than a few minutes, so that a recorded delivery cannot be
// sent again later. A run's deliveries share its id in WebhookIDHeader: a
// delivery may arrive more than once (at least once), and the id tells.
const (
	WebhookSignatureHeader = "X-Sgrgraph-Signature"
	WebhookTimestampHeader = "X-Sgrgraph-Timestamp"
	WebhookIDHeader        = "X-Sgrgraph-Delivery"
)

// MaxWebhookBytes bounds a webhook URL.
const MaxWebhookBytes = 2048

// WebhookSecret is the secret a run's webhook is signed with, derived from
// the API key the run was submitted with: the key's holder computes it too,
// and no other key can.
func WebhookSecret(apiKey string) string {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte("sgrgraph webhook secret"))
	return hex.EncodeToString(m.Sum(nil))
}

// SignWebhook is the signature header value of body sent at timestamp
// (Unix seconds) under secret.
func SignWebhook(secret string, timestamp int64, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strconv.FormatInt(timestamp, 10)))
	m.Write([]byte("."))
	m.Write(body)
	return "v1=" + hex.EncodeToString(m.Sum(nil))
}

// VerifyWebhook checks a delivery's signature and that its timestamp is
// within maxAge of now, for a receiver written in Go.
func VerifyWebhook(secret, timestamp, signature string, body []byte, maxAge time.Duration, now time.Time) error {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("webhook: %s: %q is not Unix seconds", WebhookTimestampHeader, timestamp)
	}
	if age := now.Sub(time.Unix(ts, 0)); age > maxAge || age < -maxAge {
		return fmt.Errorf("webhook: %s: %s away from now, over %s: a replay, or clocks apart", WebhookTimestampHeader, age.Round(time.Second), maxAge)
	}
	if !hmac.Equal([]byte(SignWebhook(secret, ts, body)), []byte(signature)) {
		return fmt.Errorf("webhook: %s does not match the body", WebhookSignatureHeader)
	}
	return nil
}

// WebhookHosts is where webhooks may go: loopback addresses (and the name
// localhost), plus the hosts listed (serve.webhook_hosts): names, IP
// addresses or CIDR prefixes. Any other host is refused, so that a client
// cannot make the server call into its network. The rule is applied to
// the URL and again to the address each connection dials, after DNS.
type WebhookHosts struct {
	names    map[string]bool
	prefixes []netip.Prefix
}

// NewWebhookHosts reads the entries of serve.webhook_hosts.
func NewWebhookHosts(entries []string) (WebhookHosts, error) {
	h := WebhookHosts{names: map[string]bool{}}
	for i, e := range entries {
		e = strings.ToLower(strings.TrimSpace(e))
		switch {
		case e == "":
			return h, fmt.Errorf("webhook_hosts[%d]: empty", i)
		case strings.Contains(e, "/"):
			p, err := netip.ParsePrefix(e)
			if err != nil {
				return h, fmt.Errorf("webhook_hosts[%d]: %q is not a CIDR prefix: %w", i, e, err)
			}
			h.prefixes = append(h.prefixes, p.Masked())
		default:
			if a, err := netip.ParseAddr(e); err == nil {
				h.prefixes = append(h.prefixes, netip.PrefixFrom(a, a.BitLen()))
				continue
			}
			if strings.ContainsAny(e, ":@ ") {
				return h, fmt.Errorf("webhook_hosts[%d]: %q: a host name, an IP address or a CIDR prefix, without a port", i, e)
			}
			h.names[strings.TrimSuffix(e, ".")] = true
		}
	}
	return h, nil
}

// CheckURL refuses a webhook URL that is not http(s) to an allowed host;
// the error names the field and the rule.
func (h WebhookHosts) CheckURL(raw string) error {
	if len(raw) > MaxWebhookBytes {
		return fmt.Errorf("webhook: %d bytes, over the limit of %d", len(raw), MaxWebhookBytes)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("webhook: an absolute http:// or https:// URL")
	}
	if u.User != nil {
		return errors.New("webhook: a URL without user or password")
	}
	if !h.hostAllowed(u.Hostname()) {
		return fmt.Errorf("webhook: host %q is neither a loopback address nor listed in serve.webhook_hosts", u.Hostname())
	}
	return nil
}

// hostAllowed is the rule by name, before DNS.
func (h WebhookHosts) hostAllowed(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().IsLoopback() || h.listed(a)
	}
	return host == "localhost" || h.names[host]
}

func (h WebhookHosts) listed(a netip.Addr) bool {
	for _, p := range h.prefixes {
		if p.Contains(a.Unmap()) || p.Contains(a) {
			return true
		}
	}
	return false
}

// dialAllowed is the rule for the address a connection to host dials: a
// listed address, or a loopback one for a host allowed by name; never an
// unspecified, multicast or link-local address (cloud metadata) a name
// resolved to, unless listed.
func (h WebhookHosts) dialAllowed(host string, a netip.Addr) bool {
	a = a.Unmap()
	if h.listed(a) {
		return true
	}
	if a.IsUnspecified() || a.IsMulticast() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() {
		return false
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if a.IsLoopback() {
		return h.hostAllowed(host)
	}
	_, isIP := netip.ParseAddr(host)
	return isIP != nil && h.names[host]
}

// dialControl refuses, after DNS, an address dialAllowed does not allow.
func (h WebhookHosts) dialControl(host string) func(network, address string, _ any) error {
	return func(_, address string, _ any) error {
		ip, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		a, err := netip.ParseAddr(ip)
		if err != nil {
			return err
		}
		if !h.dialAllowed(host, a) {
			return fmt.Errorf("webhook: host %q resolved to %s, which serve.webhook_hosts does not allow", host, a)
		}
		return nil
	}
}
