package io.sluice.logical.function;

import static io.sluice.logical.function.ArgKind.ANY;
import static io.sluice.logical.function.ArgKind.INTEGER;
import static io.sluice.logical.function.ArgKind.STRING;

import io.sluice.common.SluiceException;
import io.sluice.common.types.DataType;
import io.sluice.common.types.DataType.Kind;
import io.sluice.logical.expr.Literal;
import io.sluice.logical.function.FunctionDefinition.ResultType;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Spark's string functions evaluated as {@link FunctionCall}s. Positions count characters from 1; a
 * NULL argument gives NULL (concat_ws skips NULLs). There is no BINARY type: {@code md5},
 * {@code sha1}, {@code sha2} and {@code base64} read the UTF-8 bytes of their text argument, and
 * {@code unbase64} decodes to text.
 */
final class StringFunctions {
    static final ResultType TEXT = (types, args) -> DataType.UTF8;
    static final ResultType INT = (types, args) -> DataType.INT32;

    private StringFunctions() {
    }

    static void register(Registrar r) {
        r.evaluated("regexp_extract", Signature.of(2, "str", STRING, "regexp", STRING, "idx", INTEGER),
                "The part of str that group idx (default 1; 0 the whole match) of the Java regular expression matched"
                        + " first, '' when nothing matched.", regex("regexp_extract", 1, TEXT));
        r.evaluated("regexp_replace", Signature.of(3, "str", STRING, "regexp", STRING, "rep", STRING, "pos", INTEGER),
                "str with every match of regexp after position pos (default 1) replaced by rep ($1 refers to a group).",
                regex("regexp_replace", 1, TEXT));
        r.evaluated("split", Signature.of(2, "str", STRING, "regex", STRING, "limit", INTEGER),
                "str split around matches of regex, at most limit parts when limit > 0.",
                regex("split", 1, (types, args) -> DataType.list(DataType.UTF8)));
        r.evaluated("concat_ws", Signature.variadic(1, "sep", STRING, "str", ANY),
                "The strings (and array elements) that are not NULL, joined by sep.", (types, args) -> {
                    for (int i = 1; i < types.size(); i++) {
                        DataType t = types.get(i);
                        boolean list = t.kind() == Kind.LIST && STRING.accepts(t.elementType());
                        if (!list && (!STRING.accepts(t) || t.kind() == Kind.LIST)) {
                            throw new SluiceException("concat_ws(): argument " + (i + 1) + " (str) must be a STRING or an"
                                    + " ARRAY<STRING>, not " + t.sqlName() + " (" + args.get(i) + ")");
                        }
                    }
                    return DataType.UTF8;
                });
        r.evaluated("lpad", Signature.of(2, "str", STRING, "len", INTEGER, "pad", STRING),
                "str left-padded with pad (default a space) to len characters, or cut to len.", TEXT);
        r.evaluated("rpad", Signature.of(2, "str", STRING, "len", INTEGER, "pad", STRING),
                "str right-padded with pad (default a space) to len characters, or cut to len.", TEXT);
        r.evaluated("initcap", Signature.of(1, "str", STRING),
                "str with the first letter of each space-separated word upper case, the rest lower case.", TEXT);
        r.evaluated("translate", Signature.of(3, "input", STRING, "from", STRING, "to", STRING),
                "input with each character of from replaced by the one at its position in to (removed when to is"
                        + " shorter).", TEXT);
        r.evaluated("locate|position", Signature.of(2, "substr", STRING, "str", STRING, "pos", INTEGER),
                "The 1-based position of the first occurrence of substr in str at or after pos (default 1), 0 if absent.",
                INT);
        r.evaluated("format_string|printf", Signature.variadic(1, "strfmt", STRING, "obj", ANY),
                "The arguments formatted by the printf-style format strfmt.", TEXT);
        r.evaluated("md5", Signature.of(1, "expr", STRING), "The MD5 digest of expr as 32 hex digits.", TEXT);
        r.evaluated("sha1|sha", Signature.of(1, "expr", STRING), "The SHA-1 digest of expr as 40 hex digits.", TEXT);
        r.evaluated("sha2", Signature.of(2, "expr", STRING, "bitLength", INTEGER),
                "The SHA-2 digest of expr as hex digits; bitLength 224, 256 (or 0), 384 or 512, else NULL.", TEXT);
        r.evaluated("base64", Signature.of(1, "bin", STRING), "The base64 text of the UTF-8 bytes of bin.", TEXT);
        r.evaluated("unbase64", Signature.of(1, "str", STRING), "The text whose UTF-8 bytes base64 str encodes.", TEXT);
        r.evaluated("reverse", Signature.of(1, "expr", ANY), "The string with its characters, or the array with its"
                + " elements, in reverse order.", (types, args) -> {
                    DataType t = types.get(0);
                    if (t.kind() == Kind.LIST) {
                        return t;
                    }
                    if (!STRING.accepts(t)) {
                        throw new SluiceException("reverse(): argument 1 (expr) must be a STRING or an ARRAY, not "
                                + t.sqlName() + " (" + args.get(0) + ")");
                    }
                    return DataType.UTF8;
                });
        r.evaluated("repeat", Signature.of(2, "str", STRING, "n", INTEGER), "str repeated n times.", TEXT);
        r.evaluated("left", Signature.of(2, "str", STRING, "len", INTEGER), "The leftmost len characters of str.", TEXT);
        r.evaluated("right", Signature.of(2, "str", STRING, "len", INTEGER), "The rightmost len characters of str.", TEXT);
        r.evaluated("ascii", Signature.of(1, "str", STRING), "The code point of the first character of str, 0 for ''.",
                INT);
        r.evaluated("chr|char", Signature.of(1, "expr", INTEGER),
                "The character whose code is expr modulo 256 ('' for a negative expr).", TEXT);
    }

    /**
     * {@code next}, after checking that a constant pattern argument (at {@code index}) compiles:
     * a bad pattern is an error when the query is planned, naming the function and the pattern.
     */
    static ResultType regex(String function, int index, ResultType next) {
        return (types, args) -> {
            if (args.get(index) instanceof Literal l && l.value() instanceof String pattern) {
                compile(pattern, function + "() argument " + (index + 1));
            }
            return next.type(types, args);
        };
    }

    /** {@code pattern} compiled as a Java regular expression (Spark's dialect), or an error naming it. */
    public static Pattern compile(String pattern, String where) {
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new SluiceException("invalid regular expression '" + pattern + "' (" + where + "): "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
    }

}
