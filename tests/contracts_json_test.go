package tests

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sgrgraph/sgrgraph/contracts"
)

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// TestContractsAreSnakeCaseJSON walks every contract type reachable from
// ChatState and StructuredResult: each exported field has a snake_case JSON
// name, so the wire format does not depend on Go field names.
func TestContractsAreSnakeCaseJSON(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ] || typ.PkgPath() != reflect.TypeOf(contracts.ChatState{}).PkgPath() {
			return
		}
		seen[typ] = true
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Anonymous { // an embedded record's fields are the state's own in JSON
				walk(f.Type)
				continue
			}
			tag, ok := f.Tag.Lookup("json")
			name := strings.Split(tag, ",")[0]
			if assert.True(t, ok, "%s.%s has no json tag", typ.Name(), f.Name) && name != "-" {
				assert.Regexp(t, snakeCase, name, "%s.%s", typ.Name(), f.Name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(contracts.ChatState{}))
	walk(reflect.TypeOf(contracts.StructuredResult{}))
	assert.Greater(t, len(seen), 10, "the walk reached the nested contract types")
}
