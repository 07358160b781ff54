//! The kinds of syntax node that a loop or a function is, in every
//! grammar read (Python, JavaScript and TypeScript, Go, Java): what the
//! readers that ask "is this call repeated?" and "which function is it
//! in?" walk up to. A loop around a function is not one its body runs in.

/// Loops: Python's `while` and `for`; JavaScript's `while`, `for`,
/// `for ... of` / `for ... in` and `do`; Go's `for` in every form; Java's
/// `while`, `for`, `do` and enhanced `for`.
pub(crate) const LOOPS: &[&str] =
    &["while_statement", "for_statement", "for_in_statement", "do_statement", "enhanced_for_statement"];

/// What starts a function, method or lambda.
pub(crate) const FUNCTIONS: &[&str] = &[
    "function_definition",
    "lambda",
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "generator_function",
    "arrow_function",
    "method_definition",
    "function",
    "method_declaration",
    "constructor_declaration",
    "func_literal",
    "lambda_expression",
];
