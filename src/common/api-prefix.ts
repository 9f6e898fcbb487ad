/** Where the HCP Terraform API lives on a varsetd server: the server's routes and links, and `varsetd exec`'s calls. */
export const API_PREFIX = '/api/v2';
