//! The edges every other module stands on: where files are ([`paths`], the only place that
//! reads env and HOME), how they are written ([`fsutil`]: private modes, locks, atomic writes),
//! the hook's hard deadline and signal handling ([`deadline`], writing through [`sigsafe`]) and
//! bounded error log ([`errlog`]), the clock and dates ([`time`]), what a project is
//! ([`project`]), terminal output ([`ui`]), the terminal itself: width, colour, pager
//! ([`term`]), and the JSON the CLI prints ([`json`]).

pub mod deadline;
pub mod errlog;
pub mod fsutil;
pub mod json;
pub mod paths;
pub mod project;
pub mod sigsafe;
pub mod term;
pub mod time;
pub mod ui;
