// HSN (goods) and SAC (services) codes as GST invoices carry them: an HSN code is 4, 6 or 8 digits
// of a chapter 01-98; a SAC is 6 digits of chapter 99. Which codes exist is not checked here (the
// list is long and changes); the shape is.
export const HSN_OR_SAC_PATTERN = '^(?:(?!00|99)[0-9]{4}(?:[0-9]{2}){0,2}|99[0-9]{4})$'

const HSN_OR_SAC = new RegExp(HSN_OR_SAC_PATTERN)

export const isHsnOrSac = (code: string): boolean => HSN_OR_SAC.test(code)
