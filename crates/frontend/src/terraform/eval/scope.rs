//! What a module instance evaluates against: its [`Scope`], built from its
//! files (variables, locals, outputs and resources indexed), the module
//! calls it makes, and the suppressions of it and of the local modules it
//! calls.

use std::cell::RefCell;
use std::collections::HashMap;

use hcl_edit::expr::Expression;

use super::file::{File, Resource, labels};
use crate::terraform::instances::Instances;
use crate::value::R;

/// A module call's result, as seen from the calling module.
pub enum Child {
    /// A local module (`source = "./modules/queue"`), evaluated like the root.
    Local { name: String, scope: Box<Scope> },
    /// A registry module understood from its documented inputs: the
    /// resources it would create and its outputs.
    Registry { name: String, resources: Vec<Resource>, outputs: HashMap<String, R> },
}

/// What a module instance evaluates against.
pub struct Scope {
    pub files: Vec<File>,
    /// `""` for the root module, `module.orders.` inside a module call.
    pub prefix: String,
    /// Variable defaults: name -> (file, expression).
    pub(super) defaults: HashMap<String, (usize, Option<Expression>)>,
    /// Values that override defaults (tfvars, module arguments).
    pub(super) inputs: HashMap<String, R>,
    pub(super) locals: HashMap<String, (usize, Expression)>,
    pub(super) outputs: HashMap<String, (usize, Expression)>,
    /// `type.name` of every managed resource in the module: its file and
    /// its place in that file's body.
    pub(in crate::terraform) resources: HashMap<String, (usize, usize)>,
    /// `type.name` of every data source, the same way.
    pub(in crate::terraform) data: HashMap<String, (usize, usize)>,
    /// The instances of the resource being evaluated, innermost last.
    pub(in crate::terraform) instances: RefCell<Vec<Instances>>,
    /// The instances of each resource and module call asked about, by
    /// address (see `Scope::instances_of_resource`).
    pub(in crate::terraform) instance_cache: RefCell<HashMap<String, Instances>>,
    /// Module calls, filled in once this scope can evaluate their arguments.
    pub children: RefCell<Vec<Child>>,
    pub(super) evaluating: RefCell<Vec<String>>,
}

impl Scope {
    pub(crate) fn new(files: Vec<File>, prefix: String, inputs: HashMap<String, R>) -> Self {
        let mut scope = Scope {
            files: Vec::new(),
            prefix,
            defaults: HashMap::new(),
            inputs,
            locals: HashMap::new(),
            outputs: HashMap::new(),
            resources: HashMap::new(),
            data: HashMap::new(),
            instances: RefCell::new(Vec::new()),
            instance_cache: RefCell::new(HashMap::new()),
            children: RefCell::new(Vec::new()),
            evaluating: RefCell::new(Vec::new()),
        };
        for (fi, file) in files.iter().enumerate() {
            for (bi, block) in file.body.iter().enumerate().filter_map(|(i, s)| s.as_block().map(|b| (i, b))) {
                match (block.ident.as_str(), labels(block).as_slice()) {
                    ("variable", [name]) => {
                        let default = block.body.get_attribute("default").map(|a| a.value.clone());
                        scope.defaults.insert(name.clone(), (fi, default));
                    }
                    ("locals", []) => {
                        for attr in block.body.attributes() {
                            scope.locals.insert(attr.key.as_str().to_string(), (fi, attr.value.clone()));
                        }
                    }
                    ("output", [name]) => {
                        if let Some(value) = block.body.get_attribute("value") {
                            scope.outputs.insert(name.clone(), (fi, value.value.clone()));
                        }
                    }
                    ("resource", [kind, name]) => {
                        scope.resources.entry(format!("{kind}.{name}")).or_insert((fi, bi));
                    }
                    ("data", [kind, name]) => {
                        scope.data.entry(format!("{kind}.{name}")).or_insert((fi, bi));
                    }
                    _ => {}
                }
            }
        }
        scope.files = files;
        scope
    }

    /// The suppressions of the files of this module and of the local
    /// modules it calls.
    pub(crate) fn all_suppressions(&self) -> Vec<sqsguard_model::Suppression> {
        let mut out: Vec<_> = self
            .files
            .iter()
            .flat_map(|f| f.suppressions.iter().cloned())
            .map(|mut s| {
                // A resource's address in this module, as findings name it.
                if let sqsguard_model::Scope::Resource(address) = &mut s.scope {
                    address.insert_str(0, &self.prefix);
                }
                s
            })
            .collect();
        for child in self.children.borrow().iter() {
            if let Child::Local { scope, .. } = child {
                out.extend(scope.all_suppressions());
            }
        }
        out
    }
}
