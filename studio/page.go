package studio

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"time"
)

//go:embed assets
var assets embed.FS

// contentSecurityPolicy lets the page run its own files and nothing else,
// as the web chat's: no inline script, no other origin, no framing. State
// text is put on the page as text, never as markup.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

type asset struct {
	body        []byte
	ctype, etag string
}

// page serves the studio's page at /studio and its files at
// /studio/assets/NAME, from the files embedded in the binary.
type page struct{ files map[string]asset }

func newPage() (*page, error) {
	p := &page{files: map[string]asset{}}
	err := fs.WalkDir(assets, "assets", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ctype, ok := contentTypes[path.Ext(name)]
		if !ok {
			return nil
		}
		body, err := assets.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		p.files[path.Base(name)] = asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("studio: %w", err)
	}
	return p, nil
}

func (p *page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	name := r.PathValue("name")
	if name == "" {
		name = "index.html"
	}
	f, ok := p.files[name]
	if !ok {
		writeError(w, http.StatusNotFound, "", "unknown URL: %s %s", r.Method, r.URL.Path)
		return
	}
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
