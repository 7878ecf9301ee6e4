/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_filter_hint.c - a rule that fails and is spelled as SQL or C would spell it gets the
 * form that works in its message (docs/filters.md, "Errors"), before " at character N" so the
 * position stays last; a rule that fails for another reason gets no hint, and a hint speaks
 * of the failing clause only. Truth: the messages written out by hand.
 */
#include <string.h>

#include "filter_testkit.h"

static const int64_t x[3] = {1, 2, 3};
static const double ra[3] = {1, 2, 3};
static const uint8_t flag[3] = {1, 0, 1};
static const int64_t s_off[4] = {0, 1, 2, 3};
static const int32_t d[3] = {17532, 17533, 17534};

static tk_table table(void)
{
    tk_table t = {.nrows = 3};
    tk_add(&t, "x", PQT_INT64, -1, x, NULL, NULL);
    tk_add(&t, "ra", PQT_FLOAT64, -1, ra, NULL, NULL);
    tk_add(&t, "mass", PQT_FLOAT64, -1, ra, NULL, NULL);
    tk_add(&t, "flag", PQT_BOOL, -1, flag, NULL, NULL);
    tk_add(&t, "s", PQT_STRING, -1, s_off, "abc", NULL);
    tk_add(&t, "d", PQT_DATE, -1, d, NULL, NULL);
    tk_add(&t, "flux (Jy)", PQT_FLOAT64, -1, ra, NULL, NULL);
    return t;
}

/* The whole message, exactly. */
#define CHECK_MSG(t, rule, msg)                                                                    \
    do {                                                                                           \
        const char *got_ = tk_rule((t), (rule));                                                   \
        if (strncmp(got_, "ERR: ", 5) != 0 || strcmp(got_ + 5, (msg)) != 0 ||                      \
            tk_last_status != PQT_BAD_FILTER) {                                                    \
            fprintf(stderr, "%s:%d: rule %s:\n  got  [%s]\n  want [ERR: %s]\n", __FILE__,          \
                    __LINE__, (rule), got_, (msg));                                                \
            pqt_test_failures++;                                                                   \
        }                                                                                          \
    } while (0)

#define NOT_NUM "is not a number, true or false (a string value is written in double quotes)"
#define NOCOL ", nor a column of the table (did you mean 'x'?)"
#define NOT_DATE "column 'd' is date; its value is a double-quoted date such as \"2024-01-31\""

static void parse_hints(const tk_table *t)
{
    CHECK_MSG(t, "x = null",
              "filter rule 'x = null': 'null' " NOT_NUM NOCOL
              " (a comparison with null is never true: write 'x is null') at character 5");
    CHECK_MSG(t, "x == NULL",
              "filter rule 'x == NULL': 'NULL' " NOT_NUM NOCOL
              " (a comparison with null is never true: write 'x is null') at character 6");
    CHECK_MSG(t, "x<>null",
              "filter rule 'x<>null': 'null' " NOT_NUM NOCOL
              " (a comparison with null is never true: write 'x is not null') at character 4");
    CHECK_MSG(t, "ra > 1 and `ra` != Null",
              "filter rule '`ra` != Null': 'Null' " NOT_NUM NOCOL
              " (a comparison with null is never true: write '`ra` is not null') at character 20");
    CHECK_MSG(t, "x > 1 && ra > 2",
              "filter expression 'x > 1 && ra > 2': unexpected '&&' (a missing and/or?) (write "
              "'and' for '&&') at character 7");
    CHECK_MSG(t, "x > 1 || ra > 2",
              "filter expression 'x > 1 || ra > 2': unexpected '||' (a missing and/or?) (write "
              "'or' for '||') at character 7");
    CHECK_MSG(t, "!flag",
              "filter rule '!flag' is missing an operator (write 'not flag' for '!flag') at "
              "character 1");
    CHECK_MSG(t, "s ~ 'a.*'",
              "filter rule 's ~' has an unknown operator '~' (regular expressions are not "
              "supported: write like with % for any run and _ for one character, such as name "
              "like 'a%') at character 3");
    CHECK_BAD(t, "s REGEXP 'a.*'", "(regular expressions are not supported: write like", 3);
    CHECK_BAD(t, "s similar to 'a.*'", "(regular expressions are not supported: write like", 3);
    CHECK_MSG(t, "x in 1, 2",
              "filter rule 'x in 1,': 'in' takes either a bound set named with a leading '@' (in "
              "@name) or a list in parentheses (in (1, 2, 3)) (write the list in parentheses: 'x "
              "in (1, 2)') at character 6");
    CHECK_MSG(t, "flag is true",
              "filter rule 'flag is' has an unknown operator 'is' (write 'flag == true', or the "
              "column alone) at character 6");
    CHECK_MSG(t, "flag IS FALSE",
              "filter rule 'flag IS' has an unknown operator 'IS' (write 'flag == false') at "
              "character 6");
    CHECK_MSG(t, "flag is not true",
              "filter rule 'flag is' has an unknown operator 'is' (write 'flag == false or flag "
              "is null') at character 6");
    CHECK_MSG(t, "d > 2018/1/31",
              "filter rule 'd > 2018/1/31': " NOT_DATE
              " (write a date in ISO-8601: 2018-01-31) at character 5");
    CHECK_MSG(t, "d>31/01/2018",
              "filter rule 'd>31/01/2018': " NOT_DATE
              " (write a date in ISO-8601: YYYY-MM-DD, such as 2018-01-31) at character 3");
    /* the grammar's own message already says it: no second hint */
    CHECK_MSG(t, "x between 1, 2",
              "filter rule 'x between 1,': between takes 'and' between its bounds (x between 1 "
              "and 2) at character 12");
    CHECK_BAD(t, "x between 5, 9", "(write 'x between 5 and 9')", 12);
    CHECK_BAD(t, "x between 5 ,9", "(write 'x between 5 and 9')", 13);
    CHECK_MSG(t, "\"mass\" > 5",
              "filter expression '\"mass\" > 5': unexpected '\"mass\"'; a clause starts with a "
              "column name (double quotes make a string here, not a column name: write mass (or "
              "`mass`)) at character 1");
    CHECK_BAD(t, "\"2018-01-01\" < d",
              "(double quotes make a string here: a column name goes in backquotes "
              "(`2018-01-01`), a value after the column or in single quotes ('2018-01-01'))",
              1);
    CHECK_BAD(t, "x > 1 and (\"flux (Jy)\" > 5)",
              "(double quotes make a string here: a column name goes in backquotes (`flux "
              "(Jy)`), a value after the column or in single quotes ('flux (Jy)'))",
              12);
    /* at compile, a string that names a column is one */
    CHECK_BAD(t, "mass > \"flux (Jy)\"",
              "(double quotes make a string here, not a column name: write `flux (Jy)`)", 8);
}

static void compile_hints(const tk_table *t)
{
    /* a double-quoted string naming a column, where a number was due */
    CHECK_MSG(t, "mass > \"ra\"",
              "filter rule 'mass > \"ra\"': column 'mass' is float64; its value is a number, "
              "written without quotes (double quotes make a string here, not a column name: "
              "write ra (or `ra`)) at character 8");
    /* the hint speaks of the failing clause: "ra" here is a fine string */
    CHECK_BAD(t, "s == \"ra\" and mas > 1", "unknown column in filter: mas (did you mean 'mass'?)",
              15);
    const char *got = tk_rule(t, "s == \"ra\" and mas > 1");
    CHECK(strstr(got, "double quotes") == NULL);
}

static void no_hint(const tk_table *t)
{
    /* failures that look like nothing of SQL keep their message as it was */
    CHECK_MSG(t, "x ^ 3", "filter rule 'x ^' has an unknown operator '^' at character 3");
    CHECK_MSG(t, "x > 1 and",
              "filter expression 'x > 1 and' ends after an operator; a clause is "
              "missing at character 7");
    CHECK_MSG(t, "x is_null 3",
              "filter rule 'x is_null 3': is_null takes no value at character 11");
    /* a null spelled elsewhere in the rule is not the failing clause's */
    const char *got = tk_rule(t, "s == \"null\" and x ^ 3");
    CHECK(strstr(got, "comparison with null") == NULL);
}

int main(void)
{
    tk_table t = table();
    parse_hints(&t);
    compile_hints(&t);
    no_hint(&t);
    return pqt_test_done("test_filter_hint");
}
