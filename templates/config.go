package templates

// Config is the texts section of the configuration: files that replace
// the embedded template or catalogue; empty keeps the embedded one.
type Config struct {
	Templates string `yaml:"templates"`
	Catalogue string `yaml:"catalogue"`
}

// Open is the set the configuration names.
func Open(c Config) (*Set, error) {
	if c.Templates == "" && c.Catalogue == "" {
		return Default()
	}
	return Load(c.Templates, c.Catalogue)
}
