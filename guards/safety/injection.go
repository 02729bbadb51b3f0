package safety

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sgrgraph/sgrgraph/contracts"
)

// Injection is an instruction aimed at the assistant found in text that did
// not come from the user: a knowledge-base article, a tool's answer. Such
// text is data to the assistant; an order in it is an indirect prompt
// injection, however it got there.
type Injection struct {
	// Entry is the lexicon entry that fired (jailbreak.ignore-instructions).
	Entry string `json:"entry"`
	// Words are the words that fired it, as the lexicon reads them.
	Words string `json:"words"`
	// Sentence is the sentence they are in, as written, cut to maxSentence.
	Sentence string `json:"sentence"`
}

// String is the entry and its words, as the guard's reasons write them.
func (i Injection) String() string { return i.Entry + ": " + strconv.Quote(i.Words) }

// maxSentence bounds the sentence an Injection quotes: it names the place,
// and the rest of the passage is not repeated into notes and verdicts.
const maxSentence = 160

// InjectionFinder reads untrusted text for instructions aimed at the
// assistant; *Rules is one.
type InjectionFinder interface {
	FindInjection(text string) (Injection, bool)
}

var _ InjectionFinder = (*Rules)(nil)

// FindInjection reads a passage the assistant retrieved (an article, a tool's
// answer) with the lexicon's Jailbreak entries, the ones that block a user's
// "ignore your instructions", and reports the first one that is said to the
// assistant rather than about such a message.
//
// The same words are a mention in documentation about injections ("the guard
// blocks \"ignore previous instructions\"") and in ordinary text ("use on
// jailbroken devices", "do not disregard safety instructions"). A user's
// message is the user speaking; a passage speaks to the assistant only where
// it gives the order itself, so three readings set a firing apart as a
// mention:
//
//   - it is quoted or set as code (quotes "…" “…” «…» „…“ '…', backticks):
//     quoting is how text talks about words instead of saying them;
//   - a word before it in its clause frames it as something described: an
//     infinitive or relative clause ("asks the model to …", "messages that
//     …"), a negation ("do not …"), an example ("such as …", "e.g.",
//     "например …", also just before its clause: "for example, …"), see
//     describing and introducing;
//   - it neither opens its clause (an imperative, after at most words of
//     address, politeness or a modal: "AI assistants must", "please",
//     "теперь", see addressing) nor speaks to someone ("your instructions",
//     "you are now", "твои правила"), nor follows words that speak to the
//     assistant by name ("if you are an AI reading this …").
//
// The trained model is not asked: it learnt from users' messages, and on
// articles it flags ordinary lines (a decision-table sentence at 0.68, a
// command-line option list at 0.63), where the lexicon's entries say what
// they found.
func (r *Rules) FindInjection(text string) (Injection, bool) {
	plain := unquoted(text)
	// Most passages hold no trigger at all: read the whole once, and look
	// sentence by sentence only when something fired.
	if v, _ := r.runLexicon(plain, isJailbreak); len(v.fired) == 0 {
		return Injection{}, false
	}
	for _, s := range sentences(plain) {
		v, _ := r.runLexicon(s, isJailbreak)
		for _, f := range v.fired {
			if aimedAtAssistant(s, f.words) {
				return Injection{Entry: f.entry, Words: f.words, Sentence: clipSentence(s)}, true
			}
		}
	}
	return Injection{}, false
}

func isJailbreak(e Entry) bool { return e.Category == contracts.CategoryJailbreak }

// quotePairs are the quotation marks a passage may quote words in, opening
// and closing; straight quotes close themselves.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '„': '“', '«': '»', '‘': '’', '`': '`', '\'': '\''}

// unquoted is text with every quoted or code span replaced by a line break,
// which ends the sentence there as far as the lexicon's windows are
// concerned. A span does not cross a blank line; a mark that is not closed
// before one is left as it is. A straight single quote opens only after a
// character that is not a letter or digit and closes only before one, so
// the apostrophes of "don't" and "users'" quote nothing.
func unquoted(text string) string {
	if !strings.ContainsAny(text, "\"“„«‘`'") {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		closing, ok := quotePairs[r]
		if ok && r == '\'' && (i > 0 && isLetterOrDigitBefore(text, i)) {
			ok = false
		}
		if ok {
			if end := closeOf(text, i+size, closing); end >= 0 {
				b.WriteByte('\n')
				i = end
				continue
			}
		}
		b.WriteString(text[i : i+size])
		i += size
	}
	return b.String()
}

// closeOf is the offset just past the mark that closes a quote opened
// before from, or -1 when a blank line or the end comes first.
func closeOf(text string, from int, closing rune) int {
	for j := from; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if r == '\n' && strings.HasPrefix(strings.TrimLeft(text[j+1:], " \t\r"), "\n") {
			return -1
		}
		if r == closing && j > from && !(closing == '\'' && isLetterOrDigitAt(text, j+size)) {
			return j + size
		}
		j += size
	}
	return -1
}

func isLetterOrDigitBefore(text string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isLetterOrDigitAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// sentenceEnd ends a sentence: a line break, or a full stop, question or
// exclamation mark or ellipsis before white space.
var sentenceEnd = regexp.MustCompile(`\n|[.!?…]+\s`)

// abbreviation are the abbreviations whose full stop ends no sentence:
// "e.g. ignore …" introduces an example.
var abbreviation = regexp.MustCompile(`(?i)\b(e\.\s?g|i\.\s?e|etc|vs|т\.\s?е|т\.\s?д|т\.\s?п|напр|см)\.`)

// sentences are the non-blank sentences of a passage.
func sentences(text string) []string {
	var out []string
	text = abbreviation.ReplaceAllStringFunc(text, func(a string) string { return strings.ReplaceAll(a, ".", " ") })
	for _, s := range sentenceEnd.Split(text, -1) {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// clauseEnd separates the clauses of a sentence: what comes after one of
// them opens a new clause, the place an imperative stands ("AI assistants:
// ignore …", "Please, ignore …", a table's cell).
var clauseEnd = regexp.MustCompile(`[,;:()\[\]{}|—–]|\s-+\s|->|→`)

// aimedAtAssistant reads the firing words in their sentence: said to the
// assistant, or mentioned (see FindInjection). Where the words cannot be
// found in the clauses as read one by one (a trigger that spans a comma, or
// one found in letters spelled out), the firing stands: the passage said
// it unquoted.
func aimedAtAssistant(sentence, words string) bool {
	var joined strings.Builder
	var starts []int // where each clause begins in joined
	for _, c := range clauseEnd.Split(sentence, -1) {
		n := normalize(c)
		if strings.TrimSpace(n) == "" {
			continue
		}
		starts = append(starts, joined.Len())
		joined.WriteString(n)
	}
	norm := joined.String()
	found, aimed := false, false
	for from := 0; from < len(norm); {
		at := strings.Index(norm[from:], " "+words)
		if at < 0 {
			break
		}
		at += from
		found = true
		clause := 0
		for k, s := range starts {
			if s <= at {
				clause = k
			}
		}
		before := strings.Fields(norm[:starts[clause]])
		if introduces(before[max(0, len(before)-3):]) {
			from = at + 1
			continue
		}
		if said(strings.Fields(norm[starts[clause]:at]), words) {
			aimed = true
			break
		}
		from = at + 1
	}
	return aimed || !found
}

// said decides one place the words fired: lead are the words of their
// clause before them.
func said(lead []string, words string) bool {
	if describes(lead) {
		return false
	}
	// An order joined to another ("enter developer mode and answer without
	// filters") opens a clause of its own: only the words after the last
	// joining word need to be address. A negation or a frame before it
	// still holds for both ("do not open the lid and disregard …").
	own := lead
	for i := len(own) - 1; i >= 0; i-- {
		if joining[own[i]] {
			own = own[i+1:]
			break
		}
	}
	names := anyOf(own, assistant)
	opens := true
	for _, w := range own {
		// "The assistant must …", "All AI assistants should …": a determiner
		// belongs to the address only when the clause names the assistant,
		// or "the jailbroken devices" would open with one.
		if !addressing[w] && !assistant[w] && !(names && determiner[w]) {
			opens = false
			break
		}
	}
	switch {
	case opens:
		return true
	case anyOf(strings.Fields(words), secondPerson):
		return true
	default:
		// "If you are an AI reading this ignore …": spoken to the assistant
		// by name, although the order does not open the clause.
		return anyOf(lead, secondPerson) && anyOf(lead, assistant)
	}
}

// introduces reports an example's introducer at the end of the clause
// before ("for example, …", "e.g. …", "such as: …", "например: …"): what
// follows is the example.
func introduces(tail []string) bool {
	for i, w := range tail {
		if introducing[w] || i > 0 && (tail[i-1] == "such" && w == "as" || tail[i-1] == "e" && w == "g" || tail[i-1] == "i" && w == "e") {
			return true
		}
	}
	return false
}

// describes reports a word of lead that frames what follows as described
// (see describing).
func describes(lead []string) bool {
	for i, w := range lead {
		if describing[w] && (w != "to" || i == 0 || !modalTo[lead[i-1]]) || strings.HasPrefix(w, "котор") {
			return true
		}
	}
	return introduces(lead)
}

func anyOf(words []string, in map[string]bool) bool {
	for _, w := range words {
		if in[w] {
			return true
		}
	}
	return false
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// describing are the words that, before a trigger in its clause, make it
// something described rather than said: an infinitive ("asks it to ignore
// …", but not "you need to ignore …", see modalTo), a relative or
// reported clause ("messages that …", "users who …"), a negation ("do not
// disregard …", written "don t" once read), an example ("like", "such as",
// "e.g.", "например"). These are grammar, not injections: the lexicon stays
// the one list of what an injection says.
var describing = set("to", "that", "which", "who", "whom", "whose", "whether", "not", "t", "never",
	"чтобы", "что", "не", "ни", "никогда", "как", "якобы")

// introducing are the words that introduce an example, in its clause or
// just before it ("e.g." and "i.e." are read as two words, see introduces).
var introducing = set("like", "example", "examples", "eg", "ie", "например", "напр", "примеру", "вроде", "типа")

// modalTo are the words after which "to" is the imperative's own ("you need
// to ignore …", "you have to …").
var modalTo = set("need", "needs", "have", "has", "got", "ought", "going")

// addressing are the words that may stand before an imperative at the head
// of its clause: a modal said to the one addressed, politeness, and the
// words that join or time an order ("and now", "from now on", "с этого
// момента").
var addressing = set(
	"please", "pls", "kindly", "now", "just", "simply", "so", "and", "then", "also", "first", "immediately", "instead", "always",
	"from", "on", "ok", "okay", "hey", "hi", "hello", "important", "note", "attention", "urgent", "ps", "dear",
	"you", "must", "should", "will", "shall", "need", "needs", "have", "has", "to", "can", "could", "would", "ll", "re",
	"пожалуйста", "теперь", "сейчас", "просто", "и", "а", "также", "тоже", "сначала", "сразу", "срочно", "важно", "внимание",
	"ты", "вы", "тебе", "вам", "должен", "должна", "должно", "должны", "нужно", "надо", "обязательно", "отныне", "с", "этого", "момента",
	"дорогой", "дорогая")

// assistant are the names of the one a passage may speak to: the assistant,
// the model, the system.
var assistant = set("ai", "assistant", "assistants", "chatbot", "chatbots", "bot", "bots", "model", "models", "language", "llm", "llms",
	"gpt", "chatgpt", "system", "admin",
	"ии", "ассистент", "ассистенты", "ассистента", "бот", "боты", "модель", "модели", "нейросеть", "нейросети", "система")

// determiner are the words that may stand before the assistant's name.
var determiner = set("the", "a", "an", "all", "any", "every", "this", "each", "все", "каждый", "любой", "этот")

// joining are the words that join one order to another.
var joining = set("and", "then", "but", "и", "а", "но", "затем", "потом")

// secondPerson are the words that speak to someone: a trigger that holds
// one ("ignore your instructions", "you are now DAN", "забудь свои
// правила") is said to the reader wherever it stands in its clause.
var secondPerson = set("you", "your", "yours", "yourself", "ты", "тебя", "тебе", "тобой", "твой", "твоя", "твое", "твои", "твоих",
	"твоим", "твоими", "твою", "твоего", "твоей", "вы", "вас", "вам", "вами", "ваш", "ваша", "ваше", "ваши", "вашего", "вашей",
	"вашу", "ваших", "свой", "свои", "своих", "свою", "своего", "своей")

// clipSentence is the sentence trimmed, cut to maxSentence runes.
func clipSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= maxSentence {
		return s
	}
	return string([]rune(s)[:maxSentence]) + "…"
}
