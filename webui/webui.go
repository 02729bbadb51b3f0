package webui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"time"

	"github.com/sgrgraph/sgrgraph/templates"
)

//go:embed assets
var assets embed.FS

// contentSecurityPolicy lets the page run its own files and nothing else:
// no inline script or style (an injected <script> or onerror= cannot run),
// no other origin to load from or send to, no framing (clickjacking).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// contentTypes are the types of the files the page is made of.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
}

// file is one response the handler serves, ready before any request.
type file struct {
	body  []byte
	ctype string
	etag  string
}

// handler serves the page at / and its files at /ui/NAME.
type handler struct {
	files map[string]file
}

// New is the web chat's handler: GET / is the page, GET /ui/NAME its
// scripts, styles and labels (/ui/labels.json). Mount it for both; any
// other path answers 404. Every response carries the security headers.
func New() (http.Handler, error) {
	labels, err := templates.UILabels()
	if err != nil {
		return nil, fmt.Errorf("webui: %w", err)
	}
	labelsJSON, err := json.Marshal(labels)
	if err != nil {
		return nil, fmt.Errorf("webui: labels: %w", err)
	}
	h := &handler{files: map[string]file{"/ui/labels.json": newFile(labelsJSON, contentTypes[".json"])}}
	err = fs.WalkDir(assets, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ctype, ok := contentTypes[path.Ext(p)]
		if !ok {
			return nil // licences and notes stay in the source tree
		}
		body, err := assets.ReadFile(p)
		if err != nil {
			return err
		}
		name := "/ui/" + path.Base(p)
		if name == "/ui/index.html" {
			name = "/"
		}
		h.files[name] = newFile(body, ctype)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("webui: %w", err)
	}
	return h, nil
}

func newFile(body []byte, ctype string) file {
	sum := sha256.Sum256(body)
	return file{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w.Header())
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f, ok := h.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", f.ctype)
	// Revalidate every time: a new binary serves new files under the same
	// names, and the ETag makes an unchanged file a 304.
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("ETag", f.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}

// secure sets the headers that keep the page from being framed, sniffed
// into another type, or made to run anything but its own files.
func secure(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}
