package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// hostRule is what a server without API keys asks of a request's Host.
// It defeats DNS rebinding: a page of evil.example that has its name
// resolve to this server reads the API as its own origin, but the browser
// still sends Host: evil.example, which nothing here lets in. A server with
// keys skips the rule: a foreign page holds no key, and a server reached
// by many names (behind a proxy) would need every one listed.
//
// This is the one Host check of the server: /mcp is behind it too, and
// mcpserver.HTTPHandler turns the SDK's own check off (it refused names
// allowed here, such as a proxy's on loopback).
type hostRule struct {
	allowed []hostPort // AllowedHosts; a port of "" matches any port
}

type hostPort struct{ name, port string }

func newHostRule(allowed []string) hostRule {
	var h hostRule
	for _, a := range allowed {
		if a = strings.TrimSpace(a); a != "" {
			h.allowed = append(h.allowed, splitHost(a))
		}
	}
	return h
}

// allows says whether a request with this Host, on a connection whose
// local address is local (nil when unknown), may be served: a loopback
// name or address, the very address the client connected to (an IP
// literal cannot be rebound), or an allowed host.
func (h hostRule) allows(host string, local net.Addr) bool {
	hp := splitHost(host)
	if hp.name == "" {
		return false
	}
	if hp.name == "localhost" {
		return true
	}
	if ip, err := netip.ParseAddr(hp.name); err == nil {
		if ip.IsLoopback() || ip == localIP(local) {
			return true
		}
	}
	for _, a := range h.allowed {
		if a.name == hp.name && (a.port == "" || a.port == hp.port) {
			return true
		}
	}
	return false
}

// splitHost splits "Name:port", "[::1]:port", "::1" or "name" into a
// lower-cased name without brackets or a final dot, and the port.
func splitHost(hostport string) hostPort {
	name, port, err := net.SplitHostPort(hostport)
	if err != nil { // no port, or a bare IPv6 address
		name, port = hostport, ""
	}
	name = strings.TrimSuffix(strings.Trim(strings.ToLower(name), "[]"), ".")
	if ip, err := netip.ParseAddr(name); err == nil {
		name = ip.Unmap().String() // one spelling per address: ::ffff:127.0.0.1 is 127.0.0.1
	}
	return hostPort{name: name, port: port}
}

// localIP is the IP of a connection's local address; the zero Addr, which
// no Host parses to, when there is none.
func localIP(local net.Addr) netip.Addr {
	if tcp, ok := local.(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(tcp.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.Addr{}
}

// CheckAllowedHost says what is wrong with an entry of
// Options.AllowedHosts, for a command to refuse it before serving: an
// entry is a host name or address, with or without a port, never a URL.
func CheckAllowedHost(entry string) error {
	entry = strings.TrimSpace(entry)
	if entry == "" || strings.ContainsAny(entry, "/ \t@?#") {
		return fmt.Errorf("%q is not a host: give a name or address, with a port or without (chat.example.com, 192.0.2.7:8080)", entry)
	}
	return nil
}

// hostChecked refuses a request whose Host the rule does not allow, on a
// server without keys.
func (s *Server) hostChecked(next http.Handler) http.Handler {
	if len(s.keys.digests) > 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if !s.hosts.allows(r.Host, local) {
			writeError(w, &apiError{Status: http.StatusForbidden, Type: typeInvalidRequest, Param: "Host", Code: "host_not_allowed",
				Message: fmt.Sprintf("Host: %q is not a name of this server; without API keys it answers to localhost, loopback addresses, "+
					"the address it was reached at and --allowed-hosts (start it with --allowed-hosts %s, or give --api-key)",
					r.Host, orWord(splitHost(r.Host).name, "NAME"))})
			return
		}
		next.ServeHTTP(w, r)
	})
}
