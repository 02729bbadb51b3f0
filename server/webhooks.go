package server

import (
	"net/http"
	"strings"

	"github.com/sgrgraph/sgrgraph/runs"
)

// webhookOf sets a run's webhook, when the request names one: its URL,
// checked against serve.webhook_hosts, and the secret it is signed with,
// derived from the request's API key (runs.WebhookSecret), so that the
// key's holder can check a delivery and nobody else can forge one.
func (s *Server) webhookOf(spec *runs.Spec, r *http.Request, webhook string) *apiError {
	if webhook == "" {
		return nil
	}
	if err := s.opts.WebhookHosts.CheckURL(webhook); err != nil {
		return invalid("webhook", "invalid_value", "%s", err.Error())
	}
	key := bearerKey(r)
	if key == "" {
		return invalid("webhook", "webhook_needs_key", "webhook: a run's webhook is signed with a secret derived from its API key, and this server takes none (start it with --api-key)")
	}
	spec.Webhook, spec.WebhookSecret = webhook, runs.WebhookSecret(key)
	return nil
}

// bearerKey is the API key a request was let in with; "" on a server
// without keys, where any key is ignored.
func bearerKey(r *http.Request) string {
	if recordOf(r).key == anonymous {
		return ""
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
