//! Reading a record file a user or a GUI names: a regular file only (not a device, a
//! pipe or a folder, which could block or never end) and at most [`MAX_RECORD_BYTES`],
//! read as text with invalid UTF-8 replaced.

use std::io::Read;
use std::path::Path;

/// Larger than any game record (a 19x19 game with comments is tens of kilobytes).
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// The text of the record file at `path`, or why it cannot be read.
pub fn read_record(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "{} bytes: records are at most {} MB",
            meta.len(),
            MAX_RECORD_BYTES >> 20
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_RECORD_BYTES).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_missing_files_are_refused_at_once() {
        assert!(read_record(Path::new("/dev/zero")).is_err());
        assert!(read_record(Path::new("/")).is_err());
        assert!(read_record(Path::new("/nonexistent/x.sgf")).is_err());
        let f = std::env::temp_dir().join(format!("tengen-files-{}.sgf", std::process::id()));
        std::fs::write(&f, b"(;GM[1]\xff)").unwrap();
        assert_eq!(read_record(&f).unwrap(), "(;GM[1]\u{fffd})");
        let _ = std::fs::remove_file(f);
    }
}
