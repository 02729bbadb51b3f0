package offline

import "testing"

func TestReadable(t *testing.T) {
	tests := []struct{ name, line, want string }{
		{"plain", "Open the app and tap Settings.", "Open the app and tap Settings."},
		{"reference links", "Read [Creating a new site][] and [the guide][guide] first.", "Read Creating a new site and the guide first."},
		{"a footnote's mark", "Can mute/unmute[^1] other peers and hide events [^note].", "Can mute/unmute other peers and hide events."},
		{"a footnote's note", "[^1]: A muted peer can still read.", "A muted peer can still read."},
		{"a link into the site", "Use it to [recover your profile](/support/recover-profile) later.", "Use it to recover your profile later."},
		{"a link to an anchor", "See [manual setup](#manual-setup).", "See manual setup."},
		{"a link with a title", `Read [the guide](../guide.md "Guide") first.`, "Read the guide first."},
		{"a full address stays", "Download it from [keet.io](https://keet.io/download/).", "Download it from [keet.io](https://keet.io/download/)."},
		{"an address in angle brackets stays", "Go to <https://secure.login.gov> and sign in.", "Go to <https://secure.login.gov> and sign in."},
		{"a line break tag", "Grant the camera permission.<br /> Then restart.", "Grant the camera permission. Then restart."},
		{"an inline tag", "It needs <kbd>libfuse</kbd> installed.", "It needs libfuse installed."},
		{"a script goes whole", "The page <script>window.x='y'</script> lists every option.", "The page lists every option."},
		{"a task box", "[x] Mobile: Settings / Apps", "Mobile: Settings / Apps"},
		{"a comparison is no tag", "Use it when a < b and c > d.", "Use it when a < b and c > d."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := readable(tc.line); got != tc.want {
				t.Errorf("readable(%q) = %q, want %q", tc.line, got, tc.want)
			}
		})
	}
}
