//! One map from core errors to the Python exception hierarchy of `capturefast.errors`.
//!
//! The classes are defined in Python (so they can subclass both `CaptureFastError` and
//! `ValueError` under abi3) and imported here.

use capturefast_core::Error as CoreError;
use pyo3::types::PyAnyMethods;
use pyo3::{PyErr, Python};

pyo3::import_exception!(capturefast.errors, ArgumentError);
pyo3::import_exception!(capturefast.errors, InvalidCardError);
pyo3::import_exception!(capturefast.errors, IllegalMoveError);
pyo3::import_exception!(capturefast.errors, VariantError);
pyo3::import_exception!(capturefast.errors, DecodeError);
pyo3::import_exception!(capturefast.errors, PositionError);
pyo3::import_exception!(capturefast.errors, NotationError);
pyo3::import_exception!(capturefast.errors, StoppedError);
pyo3::import_exception!(capturefast.errors, RecordError);

/// A core error on its way to Python (the orphan rule forbids `From<CoreError> for PyErr`).
pub struct Error(pub CoreError);

impl From<CoreError> for Error {
    fn from(e: CoreError) -> Error {
        Error(e)
    }
}

impl From<Error> for PyErr {
    fn from(Error(e): Error) -> PyErr {
        let msg = e.to_string();
        match e {
            CoreError::InvalidCard(_) | CoreError::DuplicateCard(_) => {
                InvalidCardError::new_err(msg)
            }
            CoreError::IllegalMove(_) | CoreError::BadMove(_) => IllegalMoveError::new_err(msg),
            // A position too large for the solver is refused for these rules' sake.
            CoreError::Variant(_) | CoreError::TooLarge(_) => VariantError::new_err(msg),
            CoreError::Argument(_) => ArgumentError::new_err(msg),
            CoreError::Decode(_) => DecodeError::new_err(msg),
            CoreError::Position(_) => PositionError::new_err(msg),
            CoreError::Stopped(_) => StoppedError::new_err(msg),
            CoreError::Notation { field, .. } => {
                // The field is also an attribute, for programs that answer with it.
                Python::attach(|py| {
                    let err = NotationError::new_err(msg);
                    let set = err.value(py).setattr("field", field);
                    set.map_or_else(|e| e, |()| err)
                })
            }
            CoreError::Record {
                game,
                line,
                hand,
                ply,
                ..
            } => Python::attach(|py| {
                // Where it is, as attributes (`RecordError`'s own), for programs to point at.
                let err = RecordError::new_err(msg);
                let value = err.value(py);
                let set = [("game", game), ("line", line), ("hand", hand), ("ply", ply)]
                    .into_iter()
                    .try_for_each(|(name, v)| value.setattr(name, v));
                set.map_or_else(|e| e, |()| err)
            }),
        }
    }
}

/// Shorthand: the core's result mapped to a Python result.
pub fn py<T>(r: Result<T, CoreError>) -> pyo3::PyResult<T> {
    r.map_err(|e| Error(e).into())
}
