//! A CDK app's synthesized templates as units of their own: checked from
//! the start and whenever a `cdk synth` (or `cdk watch`) writes them,
//! open or not, since their findings are published on the app's source
//! files ([`sqsguard_cdk`]), which is what the user has open.

use std::path::{Path, PathBuf};

use super::{Unit, Workspace, is_config, key_of};

impl Workspace {
    /// A file changed on disk (not an open document's text).
    pub(crate) fn changed_on_disk(&mut self, path: &Path) {
        if is_config(path) {
            return self.config_changed();
        }
        if self.docs.get(path).is_none() {
            let mut keys = self.readers_of(path);
            // A `cdk synth` (or `cdk watch`) wrote a template: checked
            // whether open or not, its findings on the app's source.
            if sqsguard_cdk::is_synthesized(path) {
                keys.push(self.unit_of(path));
            }
            self.schedule(keys);
        }
    }

    /// The CDK apps' synthesized templates in the workspace, each a unit
    /// checked from the start: their findings are on the app's source
    /// files, which is what the user opens.
    pub(crate) fn check_synthesized(&mut self) {
        let Some(root) = self.root.clone() else { return };
        let keys: Vec<PathBuf> =
            sqsguard_cdk::synthesized_templates(&root).iter().map(|path| self.unit_of(path)).collect();
        self.schedule(keys);
    }

    /// The unit checked as the document `path`, made when it is new (an
    /// opened document's, a synthesized template's).
    pub(super) fn unit_of(&mut self, path: &Path) -> PathBuf {
        let key = key_of(path);
        self.units.entry(key.clone()).or_insert_with(|| Unit {
            path: path.to_path_buf(),
            generation: 0,
            pending: false,
            checked: None,
        });
        key
    }
}
