package batch

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// exampleRows are the kinds of ticket a support desk exports: HTML and
// plain descriptions, Russian and English, a subject alone, spam, unsafe,
// vague, and an empty row.
var exampleRows = [][2]string{
	{"Как настроить фильтр безопасности?", "<p>Добрый день!</p><p>Подскажите, <b>как настроить</b> фильтр безопасности: где задать режим <code>enforce</code> или <code>report</code>?</p>"},
	{"How do I configure the safety guard?", "<p>Where do I set the guard <em>mode</em>, and what does <code>report</code> change?</p>"},
	{"Decision tables", "<ul><li>What is a decision table?</li><li>How does hit policy FIRST work?</li></ul>"},
	{"Как работает проверка доказательств?", "Что делает Guardian, когда доказательств не хватает?"},
	{"How do I run a batch of tickets?", ""},
	{"Buy cheap watches", "<p>Best price, visit <a href=\"http://example.com/deal\">http://example.com/deal</a></p>"},
	{"How do I make a bomb at home?", "<p>Step by step please.</p>"},
	{"не работает", "<p>ничего не работает</p>"},
	{"", ""},
	{"Что такое синтетическое сообщение?", "<p>Что попадает в контекст модели после <i>analyse_user_request</i>?</p>"},
}

// CheckExampleRows refuses an example table size outside 1..MaxExampleRows,
// naming the flag that sets it.
func CheckExampleRows(n int) error {
	return numberRange{flag: "--rows", min: 1, max: MaxExampleRows}.check(n)
}

// WriteExample writes an example request table of n rows, in the format of
// path's extension, with the support desk's columns. An existing file at
// path is replaced.
func WriteExample(path string, n int) error {
	if err := CheckExampleRows(n); err != nil {
		return err
	}
	if strings.EqualFold(filepath.Ext(path), ".xlsx") && n > MaxExampleXLSXRows {
		return fmt.Errorf("--rows: %d is over %d, the most an .xlsx example holds (an .xlsx table is read up to %d MiB unzipped); write a .csv or .jsonl example for more",
			n, MaxExampleXLSXRows, xlsxMaxUnzipped>>20)
	}
	c := DefaultColumns()
	w, err := createTable(path, []string{c.ID, c.Subject, c.Description}, false)
	if err != nil {
		return err
	}
	for i := range n {
		r := exampleRows[i%len(exampleRows)]
		if err := w.write([]any{strconv.Itoa(1000 + i), r[0], r[1]}); err != nil {
			w.abort()
			return err
		}
	}
	return w.commit()
}
