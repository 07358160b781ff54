//! Each form of import a unit reads, from small files: the statements
//! the patterns spell out and the `require` calls `imports` reads.

use super::unit::{Binding, Unit};
use sqsguard_model::code::Language;
use sqsguard_source::SourceFile;

fn imports(language: Language, text: &str) -> Vec<(String, Binding)> {
    let source = SourceFile::new("index", text.to_string());
    let unit = Unit::parse(&source, language).unwrap_or_else(|e| panic!("{}", e.why));
    unit.imports.into_iter().map(|i| (i.source, i.binding)).collect()
}

fn name(source: &str, name: &str, local: &str) -> (String, Binding) {
    (source.into(), Binding::Name { name: name.into(), local: local.into() })
}

#[test]
fn each_form_of_require_binds_what_it_names() {
    let text = "const lib = require('./lib');\n\
                const { f, g: h } = require('./fg');\n\
                const k = require('./k').kk;\n\
                exports.handler = require('./impl').main;\n\
                module.exports = require('./all');\n\
                console.log(require('./passed'));\n\
                const [x] = require('./array');\n\
                other.exports = require('./not-module');\n";
    for language in [Language::JavaScript, Language::TypeScript, Language::Tsx] {
        assert_eq!(
            imports(language, text),
            [
                ("./lib".into(), Binding::Module("lib".into())),
                name("./fg", "f", "f"),
                name("./fg", "g", "h"),
                name("./k", "kk", "k"),
                name("./impl", "main", "handler"),
                ("./all".into(), Binding::Every),
            ],
            "{language:?}"
        );
    }
}

#[test]
fn import_statements_still_come_from_the_patterns() {
    let text = "import { a, b as c } from './ab';\nimport * as ns from './ns';\nexport * from './re';\n";
    assert_eq!(
        imports(Language::TypeScript, text),
        [
            name("./ab", "a", "a"),
            name("./ab", "b", "c"),
            ("./ns".into(), Binding::Module("ns".into())),
            ("./re".into(), Binding::Every),
        ]
    );
}
