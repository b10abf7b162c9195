//! U005 `not_utf8`: the whole file is in another encoding. One diagnostic
//! naming the likely encoding instead of one U001 per byte. This file is
//! the folder's door: its modules and the names the rest of the crate
//! takes from them, nothing else (a file outside reaches the one that
//! defines what it names).

mod conversion;
mod detector;
mod finding;
mod languages;
mod reading;
mod sample;
mod unclaimed;
mod verdict;

pub(crate) use self::finding::{
    iso_2022_jp_diagnostic, legacy_finding, wide_diagnostic, wrong_bom_diagnostic,
};
pub(crate) use self::languages::LATIN_READINGS;
pub(crate) use self::reading::{Reading, is_common};
pub(crate) use self::sample::MIN_LEGACY_NON_ASCII;
pub(crate) use self::verdict::{StrayBytes, stray_bytes};
#[cfg(feature = "testing")]
pub(crate) use self::{
    detector::{MIN_DETECTOR_MARGIN_PERCENT, MIN_DETECTOR_SCORE, detector_identifies},
    reading::{MIN_LEGACY_LETTER_PERCENT, MIN_ONE_SCRIPT_PERCENT},
    sample::{LEGACY_SAMPLE_BYTES, LEGACY_SCAN_BYTES},
    verdict::legacy_verdict,
    verdict::{MAX_UTF8_LIKE_PERCENT, MAX_UTF8_PER_ERROR},
};
