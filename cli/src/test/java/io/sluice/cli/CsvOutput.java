package io.sluice.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses what {@code sluice sql --format csv} prints: RFC 4180 records, an empty unquoted field is
 * NULL (null here), a quoted empty field an empty string.
 */
final class CsvOutput {
    private CsvOutput() {
    }

    /** Every record, the header first. */
    static List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean sawQuote = false;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (quoted) {
                if (c == '"' && i < text.length() && text.charAt(i) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                sawQuote = true;
            } else if (c == ',' || c == '\n') {
                record.add(field.length() == 0 && !sawQuote ? null : field.toString());
                field.setLength(0);
                sawQuote = false;
                if (c == '\n') {
                    records.add(record);
                    record = new ArrayList<>();
                }
            } else if (c != '\r') {
                field.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quoted field in: " + text);
        }
        if (field.length() > 0 || sawQuote || !record.isEmpty()) {
            throw new IllegalArgumentException("last record does not end with a line break: " + text);
        }
        return records;
    }
}
