package dev.joinstep.harness;

import java.util.ArrayList;
import java.util.List;

/** Splits a scenario's SQL text into statements at top-level semicolons. */
final class SqlStatements {
    private SqlStatements() {}

    /**
     * Quotes ('...', "...", `...`) and comments (-- and block comments) are skipped, so a semicolon
     * inside them does not end a statement. Empty statements are dropped.
     */
    static List<String> split(String sql) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = i + 1;
                while (end < n) {
                    if (sql.charAt(end) == c) {
                        // a doubled quote is an escaped quote inside the literal
                        if (end + 1 < n && sql.charAt(end + 1) == c) {
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                int stop = Math.min(n, end + 1);
                cur.append(sql, i, stop);
                i = stop;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                int stop = end < 0 ? n : end;
                cur.append(sql, i, stop);
                i = stop;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                int stop = end < 0 ? n : end + 2;
                cur.append(sql, i, stop);
                i = stop;
            } else if (c == ';') {
                add(out, cur);
                cur.setLength(0);
                i++;
            } else {
                cur.append(c);
                i++;
            }
        }
        add(out, cur);
        return out;
    }

    private static void add(List<String> out, StringBuilder cur) {
        String s = cur.toString();
        if (!stripComments(s).isBlank()) out.add(s.strip());
    }

    /** The statement without comments, to see whether anything is left and what it starts with. */
    static String stripComments(String s) {
        return s.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("--[^\\n]*", " ");
    }

    /** True for a statement that is a query or an INSERT: the one the scenario runs. */
    static boolean isQuery(String statement) {
        String head = stripComments(statement).stripLeading().toUpperCase();
        return head.startsWith("SELECT")
                || head.startsWith("WITH")
                || head.startsWith("INSERT")
                || head.startsWith("(")
                || head.startsWith("VALUES");
    }

    static boolean isInsert(String statement) {
        return stripComments(statement).stripLeading().toUpperCase().startsWith("INSERT");
    }
}
