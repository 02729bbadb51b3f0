package config

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestOverlayKeepsBaseAndChecksAsTheFile(t *testing.T) {
	base := Default()
	got, err := Overlay(base, []byte(`{"guard": {"mode": "report"}, "kb": {"top_k": 3}}`), "assistant")
	if err != nil {
		t.Fatal(err)
	}
	if got.KB.TopK != 3 || !reflect.DeepEqual(base, Default()) {
		t.Fatalf("top_k %d; base changed: %v", got.KB.TopK, !reflect.DeepEqual(base, Default()))
	}
	// The copy may hold an empty map where base holds none: compared as written.
	same, err := Overlay(base, nil, "assistant")
	a, _ := yaml.Marshal(same)
	b, _ := yaml.Marshal(base)
	if err != nil || string(a) != string(b) {
		t.Fatalf("an empty overlay changed the configuration (%v)", err)
	}
	if _, err := Overlay(base, []byte(`{"guard": {"mode": "loose"}}`), "assistant"); err == nil || !strings.Contains(err.Error(), "guard.mode") {
		t.Fatalf("a bad guard.mode: %v", err)
	}
	if _, err := Overlay(base, []byte(`{"gaurd": {}}`), "assistant"); err == nil || !strings.Contains(err.Error(), "gaurd") {
		t.Fatalf("an unknown key: %v", err)
	}
}
