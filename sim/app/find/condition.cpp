#include "sim/app/find/condition.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "models/policy_table.h"
#include "models/workload/input_error.h"
#include "sim/engine/run_status.h"
#include "sim/engine/summary.h"
#include "sim/report/charts/value_axis.h"

namespace memsim {

// And and Or hold all their operands (a chain of 10,000 `and`s is one node, not a tree
// 10,000 deep): only parentheses nest, and their depth is bounded, so neither parsing,
// evaluating nor freeing a condition recurses deeper than kMaxConditionDepth levels.
struct ConditionNode {
    enum class Kind { And, Or, Compare } kind = Kind::Compare;
    std::vector<std::shared_ptr<const ConditionNode>> operands;  // And, Or
    std::string field, op, value_text;                           // Compare
    std::optional<double> number;                                // the value as a number in base units, if it reads as one
};

namespace {

// The condition as an error message quotes it: a long one cut to its start.
std::string quoted_text(const std::string& text) {
    constexpr std::size_t kShown = 160;
    if (text.size() <= kShown) return text;
    return fmt::format("{}... ({} characters)", text.substr(0, kShown), text.size());
}

bool is_op_char(char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }

std::vector<std::string> tokenize(const std::string& text, const std::string& option) {
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (c == '(' || c == ')') {
            tokens.emplace_back(1, c);
            ++i;
        } else if (is_op_char(c)) {
            std::size_t j = i;
            while (j < text.size() && is_op_char(text[j])) ++j;
            const std::string op = text.substr(i, j - i);
            if (op != "<" && op != "<=" && op != ">" && op != ">=" && op != "==" && op != "!=")
                throw InputError(fmt::format("{}: '{}': unknown operator '{}' (use <, <=, >, >=, ==, !=)", option, quoted_text(text),
                                             quoted_text(op)));
            tokens.push_back(op);
            i = j;
        } else {
            std::size_t j = i;
            while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) && text[j] != '(' &&
                   text[j] != ')' && !is_op_char(text[j]))
                ++j;
            tokens.push_back(text.substr(i, j - i));
            i = j;
        }
    }
    return tokens;
}

bool is_comparison(const std::string& token) {
    return token == "<" || token == "<=" || token == ">" || token == ">=" || token == "==" || token == "!=";
}

// Recursive descent: or_expr := and_expr ('or' and_expr)*; and_expr := atom ('and' atom)*;
// atom := '(' or_expr ')' | FIELD OP VALUE.
class ConditionParser {
public:
    ConditionParser(std::vector<std::string> tokens, const std::string& text, const std::string& option)
        : tokens_(std::move(tokens)), text_(text), option_(option) {}

    std::shared_ptr<const ConditionNode> parse() {
        if (tokens_.empty()) fail("empty condition");
        auto node = or_expr();
        if (pos_ < tokens_.size()) fail(fmt::format("unexpected '{}'", quoted_text(tokens_[pos_])));
        return node;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(fmt::format("{}: '{}': {} (a condition is FIELD OP VALUE joined by and/or, e.g. "
                                     "'status == ok and peak_bytes <= 300MiB')",
                                     option_, quoted_text(text_), what));
    }
    const std::string* peek() const { return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr; }
    std::string next(const char* expected) {
        if (pos_ >= tokens_.size()) fail(fmt::format("ends where {} was expected", expected));
        return tokens_[pos_++];
    }
    // One operand, or an And/Or node holding every operand joined by `word`.
    template <typename Operand>
    std::shared_ptr<const ConditionNode> chain(ConditionNode::Kind kind, const char* word, Operand operand) {
        auto first = operand();
        if (!peek() || *peek() != word) return first;
        auto node = std::make_shared<ConditionNode>();
        node->kind = kind;
        node->operands.push_back(std::move(first));
        while (peek() && *peek() == word) {
            ++pos_;
            node->operands.push_back(operand());
        }
        return node;
    }
    std::shared_ptr<const ConditionNode> or_expr() {
        return chain(ConditionNode::Kind::Or, "or", [&] { return and_expr(); });
    }
    std::shared_ptr<const ConditionNode> and_expr() {
        return chain(ConditionNode::Kind::And, "and", [&] { return atom(); });
    }
    std::shared_ptr<const ConditionNode> atom() {
        if (peek() && *peek() == "(") {
            if (++depth_ > kMaxConditionDepth)
                fail(fmt::format("parentheses nested deeper than {} levels", kMaxConditionDepth));
            ++pos_;
            auto node = or_expr();
            if (next("')'") != ")") fail("missing ')'");
            --depth_;
            return node;
        }
        auto node = std::make_shared<ConditionNode>();
        node->field = next("a field name");
        if (node->field == ")" || node->field == "and" || node->field == "or" || is_comparison(node->field))
            fail(fmt::format("'{}' where a field name was expected", quoted_text(node->field)));
        node->op = next("an operator");
        if (!is_comparison(node->op)) fail(fmt::format("'{}' after '{}' where an operator was expected", quoted_text(node->op), quoted_text(node->field)));
        node->value_text = next("a value");
        if (node->value_text == "(" || node->value_text == ")" || node->value_text == "and" || node->value_text == "or")
            fail(fmt::format("'{}' where a value was expected", quoted_text(node->value_text)));
        const ValueAxis axis = value_axis({node->value_text});
        if (axis.numeric && !std::isfinite(axis.positions.at(0)))
            fail(fmt::format("'{}' is not a finite number (every comparison with it would be false)", quoted_text(node->value_text)));
        if (axis.numeric) node->number = axis.positions.at(0);
        else if (node->op != "==" && node->op != "!=")
            fail(fmt::format("'{}' is not a number or a quantity with units, so it can only be compared with == or !=",
                             quoted_text(node->value_text)));
        return node;
    }

    std::vector<std::string> tokens_;
    std::size_t pos_ = 0;
    int depth_ = 0;  // parentheses open
    const std::string& text_;
    const std::string& option_;
};

// A summary field by dotted path, or nullptr.
const nlohmann::json* find_field(const nlohmann::json& summary, const std::string& path) {
    const nlohmann::json* at = &summary;
    std::size_t begin = 0;
    while (true) {
        const std::size_t dot = path.find('.', begin);
        const std::string key = path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
        if (!at->is_object() || !at->contains(key)) return nullptr;
        at = &(*at)[key];
        if (dot == std::string::npos) return at;
        begin = dot + 1;
    }
}

std::vector<std::string> field_names(const nlohmann::json& summary) {
    std::vector<std::string> names;
    if (summary.is_object())
        for (const auto& [key, value] : summary.items())
            if (key != "scenario_resolved") names.push_back(key);
    return names;
}

template <typename T>
bool compare(const T& a, const std::string& op, const T& b) {
    if (op == "<") return a < b;
    if (op == "<=") return a <= b;
    if (op == ">") return a > b;
    if (op == ">=") return a >= b;
    if (op == "==") return a == b;
    return a != b;
}

bool evaluate(const ConditionNode& node, const nlohmann::json& summary, const std::string& option) {
    switch (node.kind) {
        case ConditionNode::Kind::And:
            return std::all_of(node.operands.begin(), node.operands.end(),
                               [&](const auto& operand) { return evaluate(*operand, summary, option); });
        case ConditionNode::Kind::Or:
            return std::any_of(node.operands.begin(), node.operands.end(),
                               [&](const auto& operand) { return evaluate(*operand, summary, option); });
        case ConditionNode::Kind::Compare: break;
    }
    const bool finished = summary.is_object() && status_finished(summary.value("status", std::string()));
    const bool about_outcome = node.field == "status" || node.field == "message";
    if (!finished && !about_outcome) return false;
    const nlohmann::json* field = find_field(summary, node.field);
    if (!field) {
        if (!finished) return false;
        const std::vector<std::string> names = field_names(summary);
        const std::string closest = closest_name(node.field, names);
        throw InputError(fmt::format("{}: the summaries have no field '{}'{} (fields: {})", option, node.field,
                                     closest.empty() ? "" : fmt::format("; did you mean '{}'?", closest),
                                     fmt::join(names, ", ")));
    }
    if (node.number) {
        if (field->is_number()) return compare(field->get<double>(), node.op, *node.number);
        if (field->is_string()) {  // a quantity written as text, e.g. a bandwidth
            const ValueAxis axis = value_axis({field->get<std::string>()});
            if (axis.numeric) return compare(axis.positions.at(0), node.op, *node.number);
        }
        throw InputError(fmt::format("{}: field '{}' is {}, not a number, so it cannot be compared with {}", option,
                                     node.field, field->dump(), node.value_text));
    }
    const std::string text = field->is_string() ? field->get<std::string>() : field->dump();
    return compare(text, node.op, node.value_text);
}

void collect_fields(const ConditionNode& node, std::vector<std::string>& out) {
    if (node.kind == ConditionNode::Kind::Compare) {
        out.push_back(node.field);
        return;
    }
    for (const auto& operand : node.operands) collect_fields(*operand, out);
}

// The top-level fields of every summary.json (sim/engine/summary.h), whatever the run.
std::vector<std::string> summary_fields() {
    std::vector<std::string> names = field_names(to_json(Summary{}));
    names.push_back("message");  // written only when the status is not ok
    names.push_back("live_peak_by_role");  // written only when the workload says roles
    names.push_back("scenario_resolved");
    return names;
}

}  // namespace

Condition Condition::parse(const std::string& text, const std::string& option) {
    Condition c;
    c.text_ = text;
    c.option_ = option;
    c.root_ = ConditionParser(tokenize(text, option), text, option).parse();
    const std::vector<std::string> known = summary_fields();
    for (const std::string& field : c.fields()) {
        const std::string top = field.substr(0, field.find('.'));
        if (std::find(known.begin(), known.end(), top) != known.end()) continue;
        const std::string closest = closest_name(top, known);
        throw InputError(fmt::format("{}: '{}': summary.json has no field '{}'{} (fields: {})", option, quoted_text(text), quoted_text(top),
                                     closest.empty() ? "" : fmt::format("; did you mean '{}'?", closest),
                                     fmt::join(known, ", ")));
    }
    return c;
}

bool Condition::holds(const nlohmann::json& summary) const { return evaluate(*root_, summary, option_); }

std::vector<std::string> Condition::fields() const {
    std::vector<std::string> out;
    if (root_) collect_fields(*root_, out);
    return out;
}

}  // namespace memsim
