package guards

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/ru"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Grounding is the Guardian's check of what the draft says against what it
// cites: each statement that carries a citation [n] must be found in, or
// closely overlap, a retrieved chunk of the n-th article (the numbering
// the answer's sources list uses). Statements without a citation are not
// judged: an answer's opening line or a closing offer of help cites
// nothing and claims nothing from the knowledge base.
type Grounding struct {
	// Unsupported are the statements no chunk of their cited articles
	// supports, each with its citation marks.
	Unsupported []string
	// Cited are the refs (an article's URL, else its kb_id) of the articles
	// cited by supported statements.
	Cited []string
	// Judged is how many statements were checked.
	Judged int
}

// groundedOverlap is the share of a sentence's terms one chunk must hold
// for the sentence to be supported by it. A quote holds all of them; a
// paraphrase that keeps the facts keeps most of the content words, and a
// sentence that only shares a topic word or two with the article does
// not.
const groundedOverlap = 0.5

// minJudgedTerms: a sentence of fewer terms ("See below.") says nothing
// to check.
const minJudgedTerms = 2

var citationMark = regexp.MustCompile(`\[(\d{1,3})\]`)

// CheckGrounding judges the draft's cited statements against the chunks
// of the articles they cite.
func CheckGrounding(draft string, articles []contracts.Article) Grounding {
	var g Grounding
	chunkTerms := map[int][]termSets{}
	termsOf := func(n int) []termSets {
		if t, ok := chunkTerms[n]; ok {
			return t
		}
		var out []termSets
		for _, ch := range articles[n-1].Chunks {
			out = append(out, analyzeTerms(ch.Heading+"\n"+ch.Text))
		}
		chunkTerms[n] = out
		return out
	}
	for _, st := range statements(draft) {
		supported, judged := true, false
		for _, sentence := range sentences(st.text) {
			terms := analyzeTerms(sentence)
			if terms.size() < minJudgedTerms {
				continue
			}
			judged = true
			found := false
			for _, n := range st.cites {
				if n < 1 || n > len(articles) {
					continue
				}
				if slices.ContainsFunc(termsOf(n), func(c termSets) bool { return terms.overlap(c) >= groundedOverlap }) {
					found = true
					break
				}
			}
			if !found {
				supported = false
				break
			}
		}
		if !judged {
			continue
		}
		g.Judged++
		if !supported {
			g.Unsupported = append(g.Unsupported, st.quote())
			continue
		}
		for _, n := range st.cites {
			if n >= 1 && n <= len(articles) {
				if ref := cmpOr(articles[n-1].URL, articles[n-1].KBID); !slices.Contains(g.Cited, ref) {
					g.Cited = append(g.Cited, ref)
				}
			}
		}
	}
	return g
}

// Reason is the verdict's reason naming the unsupported statements (the
// first three, and how many more).
func (g Grounding) Reason() string {
	named := g.Unsupported[:min(3, len(g.Unsupported))]
	quoted := make([]string, len(named))
	for i, s := range named {
		quoted[i] = strconv.Quote(s)
	}
	more := ""
	if extra := len(g.Unsupported) - len(named); extra > 0 {
		more = fmt.Sprintf(" and %d more", extra)
	}
	return fmt.Sprintf("unsupported_statements=[%s]%s", strings.Join(quoted, ", "), more)
}

// statement is the text a group of citation marks closes, and the
// article numbers it cites.
type statement struct {
	text  string
	cites []int
}

// quote is the statement as the reason names it: cut to 80 characters,
// with its marks.
func (s statement) quote() string {
	text := []rune(s.text)
	if len(text) > 80 {
		text = append(text[:77], []rune("...")...)
	}
	marks := make([]string, len(s.cites))
	for i, n := range s.cites {
		marks[i] = "[" + strconv.Itoa(n) + "]"
	}
	return string(text) + " " + strings.Join(marks, "")
}

// statements finds the cited statements of a draft: line by line, the
// text before each group of citation marks, back to the previous group or
// the line's start. Marks that open a line cite the text after them.
func statements(draft string) []statement {
	var out []statement
	for _, line := range strings.Split(draft, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#>-*+0123456789.) "))
		marks := citationMark.FindAllStringSubmatchIndex(line, -1)
		start := 0
		for i := 0; i < len(marks); {
			cites, j := []int{}, i
			var end int
			for {
				n, _ := strconv.Atoi(line[marks[j][2]:marks[j][3]])
				cites, end, j = append(cites, n), marks[j][1], j+1
				if j == len(marks) || strings.TrimSpace(line[end:marks[j][0]]) != "" {
					break
				}
			}
			text := cleanStatement(line[start:marks[i][0]])
			if text == "" && i == 0 {
				// The marks open the line: they cite what follows.
				next := len(line)
				if j < len(marks) {
					next = marks[j][0]
				}
				text = cleanStatement(line[end:next])
				end = next
			}
			if text != "" {
				out = append(out, statement{text: text, cites: cites})
			}
			start, i = end, j
		}
	}
	return out
}

// cleanStatement drops the Markdown that is not part of what is said.
func cleanStatement(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
	return strings.Trim(strings.TrimSpace(s), " .;:,—-")
}

// sentences splits a statement at its sentence ends.
func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && i+1 < len(s) && s[i+1] == ' ' {
			out = append(out, s[start:i+1])
			start = i + 2
		}
	}
	return append(out, s[start:])
}

// termSets are a text's terms under the English and the Russian analyzer
// of the knowledge base's index (stemmed, stop words of both dropped).
type termSets [2]map[string]bool

func (t termSets) size() int { return max(len(t[0]), len(t[1])) }

// overlap is the share of t's terms that c holds, under the language whose
// analyzer finds the larger share.
func (t termSets) overlap(c termSets) float64 {
	best := 0.0
	for l := range t {
		if len(t[l]) == 0 {
			continue
		}
		n := 0
		for term := range t[l] {
			if c[l][term] {
				n++
			}
		}
		best = max(best, float64(n)/float64(len(t[l])))
	}
	return best
}

func analyzeTerms(text string) termSets {
	var out termSets
	for l, a := range groundingAnalyzers() {
		out[l] = map[string]bool{}
		if a == nil {
			continue
		}
		for _, tok := range a.Analyze([]byte(text)) {
			out[l][string(tok.Term)] = true
		}
	}
	return out
}

// groundingAnalyzers are bleve's English and Russian analyzers, each also
// dropping the other language's stop words (as the knowledge base's query
// analysis does): built once, safe for concurrent use. One that cannot be
// built is nil and judges nothing alone.
var groundingAnalyzers = sync.OnceValue(func() [2]analysis.Analyzer {
	var out [2]analysis.Analyzer
	cache := registry.NewCache()
	for l, stemmer := range []string{en.SnowballStemmerName, ru.SnowballStemmerName} {
		tok, err := cache.TokenizerNamed(unicode.Name)
		if err != nil {
			continue
		}
		var filters []analysis.TokenFilter
		for _, name := range []string{lowercase.Name, en.StopName, ru.StopName, stemmer} {
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				filters = nil
				break
			}
			filters = append(filters, f)
		}
		if filters != nil {
			out[l] = &analysis.DefaultAnalyzer{Tokenizer: tok, TokenFilters: filters}
		}
	}
	return out
})

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
