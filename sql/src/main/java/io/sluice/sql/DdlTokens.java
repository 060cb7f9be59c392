package io.sluice.sql;

import static java.util.Objects.requireNonNull;

import io.sluice.common.SluiceException;
import java.util.Locale;

/**
 * Splits the head of a table statement (names, column types, options, locations) into tokens, with
 * a cursor over them. Words are letters, digits and {@code _} (or {@code `quoted`} / {@code "quoted"},
 * doubled quote inside); strings are {@code 'single quoted'} with {@code ''} or a backslash escape
 * ({@code \t \n \r \\ \' \"}, as in Spark SQL; a backslash before any other character is kept, so a
 * Unicode escape reaches the option that reads it as written); anything else is one symbol character.
 * Not thread-safe.
 */
final class DdlTokens {
    enum Kind { WORD, QUOTED_NAME, STRING, NUMBER, SYMBOL, END }

    /** One token: its kind, its value (unquoted, unescaped) and where it starts in the text. */
    record Token(Kind kind, String text, int start) {
        boolean isWord(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && text.charAt(0) == c;
        }

        String describe() {
            return kind == Kind.END ? "the end of the statement" : "'" + text + "'";
        }
    }

    private final String text;
    private final boolean backslashEscapes;
    /** Where the next token is lexed from. */
    private int pos;
    /** The next token, once lexed; tokens are lexed only as far as the parser reads, so the query of a CTAS is never lexed here. */
    private Token peeked;

    DdlTokens(String text, int from) {
        this(text, from, true);
    }

    /**
     * {@code backslashEscapes} false for text whose strings {@link SparkSyntax} already unescaped
     * (Spark's dialect), so that a backslash is not read twice.
     */
    DdlTokens(String text, int from, boolean backslashEscapes) {
        this.text = requireNonNull(text, "text is null");
        this.pos = from;
        this.backslashEscapes = backslashEscapes;
    }

    private Token lex() {
        int i = StatementSplitter.skipTrivia(text, pos);
        if (i >= text.length() || text.charAt(i) == ';') {
            pos = i;
            return new Token(Kind.END, "", i);
        }
        char c = text.charAt(i);
        int start = i;
        Token token;
        if (Character.isLetter(c) || c == '_') {
            while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                i++;
            }
            token = new Token(Kind.WORD, text.substring(start, i), start);
        } else if (Character.isDigit(c)) {
            while (i < text.length() && Character.isDigit(text.charAt(i))) {
                i++;
            }
            token = new Token(Kind.NUMBER, text.substring(start, i), start);
        } else if (c == '`' || c == '"') {
            StringBuilder name = new StringBuilder();
            i = quoted(text, i, c, false, name);
            token = new Token(Kind.QUOTED_NAME, name.toString(), start);
        } else if (c == '\'') {
            StringBuilder value = new StringBuilder();
            i = quoted(text, i, '\'', backslashEscapes, value);
            token = new Token(Kind.STRING, value.toString(), start);
        } else {
            token = new Token(Kind.SYMBOL, String.valueOf(c), start);
            i++;
        }
        pos = i;
        return token;
    }

    /** Reads a quoted token opening at {@code i} into {@code out}; returns the index after its closing quote. */
    private static int quoted(String text, int i, char quote, boolean backslashEscapes, StringBuilder out) {
        int open = i++;
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (c == quote) {
                if (i < text.length() && text.charAt(i) == quote) {
                    out.append(quote);
                    i++;
                    continue;
                }
                return i;
            }
            if (c == '\\' && backslashEscapes && i < text.length()) {
                char e = text.charAt(i++);
                switch (e) {
                    case 't' -> out.append('\t');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case '\\', '\'', '"' -> out.append(e);
                    default -> out.append('\\').append(e);
                }
                continue;
            }
            out.append(c);
        }
        throw new SluiceException("SQL syntax error: unterminated " + (quote == '\'' ? "string" : "quoted name")
                + " starting at " + at(text, open));
    }

    /** A cursor at the same place, to look ahead without moving this one. */
    DdlTokens copy() {
        DdlTokens copy = new DdlTokens(text, pos, backslashEscapes);
        copy.peeked = peeked;
        return copy;
    }

    Token peek() {
        if (peeked == null) {
            peeked = lex();
        }
        return peeked;
    }

    Token take() {
        Token t = peek();
        if (t.kind() != Kind.END) {
            peeked = null;
        }
        return t;
    }

    /** Takes the word {@code word} if it is next. */
    boolean takeWord(String word) {
        if (peek().isWord(word)) {
            peeked = null;
            return true;
        }
        return false;
    }

    /** Takes the symbol {@code c} if it is next. */
    boolean takeSymbol(char c) {
        if (peek().isSymbol(c)) {
            peeked = null;
            return true;
        }
        return false;
    }

    void expectWord(String word, String where) {
        if (!takeWord(word)) {
            throw error("expected " + word.toUpperCase(Locale.ROOT), where);
        }
    }

    void expectSymbol(char c, String where) {
        if (!takeSymbol(c)) {
            throw error("expected '" + c + "'", where);
        }
    }

    /** A name: a word or a quoted name. */
    String name(String where) {
        Token t = peek();
        if (t.kind() != Kind.WORD && t.kind() != Kind.QUOTED_NAME) {
            throw error("expected a name", where);
        }
        peeked = null;
        return t.text();
    }

    String string(String where) {
        Token t = peek();
        if (t.kind() != Kind.STRING) {
            throw error("expected a 'quoted string'", where);
        }
        peeked = null;
        return t.text();
    }

    int number(String where) {
        Token t = peek();
        if (t.kind() != Kind.NUMBER || t.text().length() > 9) {
            throw error("expected a number", where);
        }
        peeked = null;
        return Integer.parseInt(t.text());
    }

    /** Where the next token starts in the text (the text's end after the last). */
    int position() {
        return peek().start();
    }

    SluiceException error(String what, String where) {
        Token t = peek();
        return new SluiceException("SQL syntax error in " + where + ": " + what + ", found " + t.describe() + " at "
                + at(text, t.start()));
    }

    /** "line L, column C" of {@code offset} in the text, both 1-based. */
    String at(int offset) {
        return at(text, offset);
    }

    private static String at(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return "line " + line + ", column " + (offset - lineStart + 1);
    }
}
